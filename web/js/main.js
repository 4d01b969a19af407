// main.js — wires the page together: the model (model.js, core in WASM), the view (view.js, the
// DOM), the two charts (charts.js), the controller (controller.js, the state) and its
// collaborators, which meet on the bus (bus.js): the whole-layer view, the guided tours, the
// exercises and the measured records (records.js, talking to the controller through callbacks).
import createRooflab from '../wasm/rooflab.mjs';
import { loadModel } from './model.js';
import { View } from './view.js';
import { Controller } from './controller.js';
import { RooflineChart, SweepChart } from './charts.js';
import { SCENARIOS } from './scenarios.js';
import { Bus } from './bus.js';

// What is built after the first number is painted, fetched then (issue 20: first number): only
// the modules above are preloaded with the page (scripts/finish-web.mjs follows static imports).
const later = () => Promise.all([
  import('./records.js'), import('./tour.js'), import('./practice.js'), import('./layer-view.js'),
  import('./test-hook.js'), import('./share.js'), import('./exports.js'),
]);

async function start() {
  const linkHash = location.hash; // a link's records= part, before the controller rewrites the fragment
  const view = new View();
  try {
    const model = await loadModel(createRooflab);
    const charts = {
      roofline: new RooflineChart(document.getElementById('roofline'), model),
      sweep: new SweepChart(document.getElementById('sweep'), model),
    };
    const bus = new Bus();
    const app = new Controller(model, view, charts, SCENARIOS, bus);
    app.load(app.pageState.fromFragment(location.hash), { fromLink: true });
    // The numbers and the two charts are painted first (issue 20: first number); what is below the
    // fold or waits for a click is built in the task after that frame (or after 100 ms: a hidden
    // tab draws no frames).
    await new Promise((ok) => { requestAnimationFrame(() => setTimeout(ok, 0)); setTimeout(ok, 100); });
    const [{ initRecords }, { Tour }, { startPractice }, { startLayerView }, { testHook }, { Share }, { Exports }] = await later();
    const layerView = startLayerView(model, bus); // the whole decoder layer (before a tour quotes it)
    if (layerView && app.good) layerView.update(app.good); // the state drawn before it listened
    const tour = new Tour(app, SCENARIOS); // the guided tours; ?tour=ID&step=N restores one
    bus.on('scenario', (id) => tour.start(id));
    tour.restore(location.search);
    startPractice(model); // the exercises, on the same model
    const records = await initRecords(model, {
      onAdopt: (problem, presetId) => app.adopt(problem, presetId),
      onUseCeiling: (field, text) => app.useCeiling(field, text),
      onPreset: (id) => app.useCeiling('hw', id), // the hardware banner's switch: a control changed by hand
      onChange: (list) => app.setMeasured(list),
      onCompareState: (value, ownRoof) => app.setCompareState(value, ownRoof),
      // the page's preset, dtype and roof as the controller last drew them (records.js words a
      // mixed-roof warning and compare mode's default dtype from these, never from the controls)
      page: () => app.good && {
        hw: app.good.resolved.preset.id, hwName: app.good.resolved.preset.name, dtype: model.dtypes[app.good.resolved.params.dtype].name,
        bandwidth: app.good.resolved.roof.bandwidth, peak: app.good.resolved.roof.peak,
        typedBandwidth: app.good.state.bandwidth, typedPeak: app.good.state.peak, // compare mode draws the page's device with these
      },
    });
    // compare mode from the link, now and when the link changes (back, forward, a pasted link)
    bus.on('compare-state', (value, ownRoof) => records.compare.restore(value, ownRoof));
    bus.on('rendered', () => records.pageChanged()); // the hardware banner follows the preset
    records.compare.restore(app.state.compare, app.state['own-roof']);
    // compare mode draws the page's device with the roof typed: redrawn when that roof changes
    let roofKey = '';
    bus.on('rendered', (good) => {
      const key = [good.resolved.preset.id, good.state.bandwidth, good.state.peak, good.resolved.params.dtype].join('|');
      if (key !== roofKey && records.compare.toggle && records.compare.toggle.checked) records.renderLater({ list: false });
      roofKey = key;
    });
    // links with records and the workspace file; exports with legend, measured columns, Markdown
    const share = new Share({ model, app, records, bus });
    new Exports({ model, app, records, bus });
    share.openLink(linkHash); // runs on after the page is ready (it waits for the kept records)
    window.rooflab = testHook({ app, model, records, layerView }); // for tests and benchmarks (test-hook.js)
    document.documentElement.dataset.ready = '1';
  } catch (e) {
    view.renderFatal(`The model failed to load: ${e.message}`);
    throw e;
  }
}

start();
