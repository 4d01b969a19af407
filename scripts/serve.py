#!/usr/bin/env python3
"""Serves the built page (build/web) on 127.0.0.1 for `make run`.

Every response carries the headers of scripts/security-headers.json (Content-Security-Policy,
X-Content-Type-Options, Referrer-Policy; the browser tests' server sends the same), .wasm goes out
as application/wasm and .js/.mjs as text/javascript, and nothing outside the served folder is
reachable: a path that resolves (through "..", encoded or not, or a symbolic link) outside it,
a directory without index.html and anything that is not a plain file answer 404.

    scripts/serve.py [--port PORT] [--dir DIR]     PORT 0 picks a free port; the URL is printed.
"""
import argparse
import functools
import http.server
import json
import os
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
HEADERS = json.load(open(os.path.join(HERE, "security-headers.json"), encoding="utf-8"))["headers"]
TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
    ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json",
    ".svg": "image/svg+xml", ".png": "image/png", ".map": "application/json",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def end_headers(self):
        for name, value in HEADERS.items():
            self.send_header(name, value)
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        root = os.path.realpath(self.directory)
        raw = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        if ".." in raw.split("/") or "\\" in raw or "\0" in raw:
            self.send_error(404, "not found")
            return None
        path = os.path.realpath(self.translate_path(self.path))
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        inside = path == root or path.startswith(root + os.sep)
        if not inside or not os.path.isfile(path):
            self.send_error(404, "not found")
            return None
        if not raw.endswith("/") and os.path.basename(path) == "index.html" and not raw.endswith("index.html"):
            self.send_response(301)  # /dir → /dir/, as SimpleHTTPRequestHandler does
            self.send_header("Location", urllib.parse.urlsplit(self.path).path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        try:
            f = open(path, "rb")
        except OSError:
            self.send_error(404, "not found")
            return None
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(os.fstat(f.fileno()).st_size))
        self.end_headers()
        return f

    def list_directory(self, path):  # never lists a folder
        self.send_error(404, "not found")
        return None


def main():
    ap = argparse.ArgumentParser(description="Serve the built page on 127.0.0.1.")
    ap.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    ap.add_argument("--dir", default=os.path.join(HERE, "..", "build", "web"))
    args = ap.parse_args()
    root = os.path.realpath(args.dir)
    if not os.path.isfile(os.path.join(root, "index.html")):
        sys.exit(f"serve: {root}/index.html is missing; run 'make web' first")
    handler = functools.partial(Handler, directory=root)
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler) as httpd:
        port = httpd.server_address[1]
        print(f"rooflab: serving the page at http://127.0.0.1:{port}/  (Ctrl-C stops)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
