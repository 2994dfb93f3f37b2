"""A plain static file server, as GitHub Pages serves a project site.

Python's http.server, with one addition: a path with no file is answered with the 404.html of the
site folder it falls in (the first path segment), as GitHub Pages does. Prints the port it listens
on (pass 0 for a free one).

    python3 static-host.py <folder> <port>
"""

import functools
import http.server
import os
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    def send_error(self, code, message=None, explain=None):
        if code != 404 or self.command != "GET":
            return super().send_error(code, message, explain)
        site = self.path.lstrip("/").split("/", 1)[0].split("?", 1)[0]
        page = os.path.join(self.directory, site, "404.html")
        if not site or not os.path.isfile(page):
            return super().send_error(code, message, explain)
        with open(page, "rb") as file:
            body = file.read()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None

    def log_message(self, format, *args):
        pass


if __name__ == "__main__":
    folder, port = sys.argv[1], int(sys.argv[2])
    handler = functools.partial(Handler, directory=folder)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"port {server.server_address[1]}", flush=True)
        server.serve_forever()
