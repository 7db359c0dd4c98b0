"""Parses a report page with Python's html.parser and prints what a golden test needs.

Usage: python html_check.py index.html -> JSON with the ids of figures, charts and tables,
the number of inline <svg> elements, any attribute that loads an external resource, and tag
nesting errors. html.parser is lenient, so nesting is checked here explicitly.
"""

import json
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "img", "hr", "input", "link", "source", "col", "area", "base", "wbr"}
# Elements plotters writes inside <svg>; they may be self-closed.
LOADING_ATTRS = {"src", "href", "xlink:href", "srcset", "data", "poster", "action", "background"}


class Check(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.ids = []
        self.svg = 0
        self.external = []
        self.tags = {}

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for name, value in attrs:
            if name == "id":
                self.ids.append(value)
            if name in LOADING_ATTRS:
                self.external.append(f"{tag} {name}={value}")
            if name == "style" and value and "url(" in value:
                self.external.append(f"{tag} style url(")
        if tag == "svg":
            self.svg += 1
        if tag == "link" or tag == "script" or tag == "iframe" or tag == "object":
            self.external.append(f"<{tag}>")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}>, open: {self.stack[-3:]}")
            if tag in self.stack:
                while self.stack and self.stack[-1] != tag:
                    self.stack.pop()
                self.stack.pop()
            return
        self.stack.pop()

    def handle_data(self, data):
        if "@import" in data:
            self.external.append("@import")


with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
c = Check()
c.feed(text)
c.close()
if c.stack:
    c.errors.append(f"unclosed at end: {c.stack}")
print(json.dumps({"ids": c.ids, "svg": c.svg, "external": c.external, "errors": c.errors,
                  "doctype": text.lstrip().lower().startswith("<!doctype html>"),
                  "tags": c.tags}))
