// bus.js — where the page's parts meet without holding one another: a part says what happened
// (emit) and the parts that care listen (on). The events (docs/PAGE.md "The bus"):
//   'rendered'      (good)            the controller drew a state: { state, resolved, result, rows }
//   'compare-state' (value, ownRoof)  a link set compare mode (records' compare view follows it)
//   'scenario'      (id)              a scenario button was pressed (the tour starts it)
export class Bus {
  constructor() { this.handlers = new Map(); }

  on(name, handler) {
    if (!this.handlers.has(name)) this.handlers.set(name, []);
    this.handlers.get(name).push(handler);
  }

  // Calls every listener of `name`; true when one of them returned true (it took the event).
  emit(name, ...args) {
    let taken = false;
    for (const h of this.handlers.get(name) || []) if (h(...args) === true) taken = true;
    return taken;
  }
}
