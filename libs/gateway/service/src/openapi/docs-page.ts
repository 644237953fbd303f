/**
 * `/docs`: a self-contained page that renders /openapi.json (the machine running it may be
 * offline, so no CDN). The script is served from /docs/docs.js so the default
 * Content-Security-Policy (`script-src 'self'`) stays on.
 */

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>reelstream operator API v1</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
  header { background: #1d2330; color: #fff; padding: 1.2rem 2rem; }
  header h1 { margin: 0; font-size: 1.4rem; }
  main { max-width: 980px; margin: 0 auto; padding: 1rem 2rem 4rem; }
  .intro { white-space: pre-wrap; }
  section.op { background: #fff; border: 1px solid #dde1e7; border-radius: 8px; margin: 1.2rem 0; padding: 0.4rem 1.2rem 1rem; }
  .method { display: inline-block; min-width: 3.6rem; text-align: center; border-radius: 4px; color: #fff; font-weight: 700; padding: 0 .4rem; margin-right: .5rem; }
  .get { background: #2f7d32; } .post { background: #1f5fbf; }
  code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
  pre { background: #f0f2f5; padding: .7rem; border-radius: 6px; overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; } td, th { border-bottom: 1px solid #e6e9ee; text-align: left; padding: .3rem .5rem; vertical-align: top; }
  details { margin: .3rem 0; } summary { cursor: pointer; font-weight: 600; }
  .status { font-weight: 700; }
</style>
</head>
<body>
<header><h1>reelstream operator API v1</h1><div>Generated from <a style="color:#9cf" href="/openapi.json">/openapi.json</a></div></header>
<main id="docs"><p>Loading the API description…</p></main>
<script src="/docs/docs.js"></script>
</body>
</html>
`;

export const DOCS_SCRIPT = `'use strict';
(function () {
  var root = document.getElementById('docs');
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    (children || []).forEach(function (child) { node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child); });
    return node;
  }
  function json(value) { return el('pre', {}, [JSON.stringify(value, null, 2)]); }
  function resolve(spec, schema) {
    if (schema && schema.$ref) return spec.components.schemas[schema.$ref.split('/').pop()] || schema;
    return schema;
  }
  function examples(content) {
    var out = [];
    Object.keys((content && content.examples) || {}).forEach(function (name) {
      var example = content.examples[name];
      out.push(el('details', {}, [el('summary', {}, ['Example: ' + (example.summary || name)]), json(example.value)]));
    });
    return out;
  }
  function parameters(op) {
    var rows = (op.parameters || []).map(function (p) {
      return el('tr', {}, [el('td', {}, [el('code', {}, [p.name])]), el('td', {}, [p.in + (p.required ? ', required' : '')]), el('td', {}, [p.description || '']), el('td', {}, [el('code', {}, [JSON.stringify(p.schema)])])]);
    });
    if (!rows.length) return [];
    return [el('h4', {}, ['Parameters']), el('table', {}, [el('tr', {}, [el('th', {}, ['name']), el('th', {}, ['in']), el('th', {}, ['description']), el('th', {}, ['schema'])])].concat(rows))];
  }
  function render(spec) {
    root.textContent = '';
    root.appendChild(el('p', { class: 'intro' }, [spec.info.description || '']));
    Object.keys(spec.paths).forEach(function (path) {
      Object.keys(spec.paths[path]).forEach(function (method) {
        var op = spec.paths[path][method];
        var section = el('section', { class: 'op', id: op.operationId }, [
          el('h3', {}, [el('span', { class: 'method ' + method }, [method.toUpperCase()]), el('code', {}, [path]), ' — ' + op.summary]),
        ]);
        if (op.description) section.appendChild(el('p', {}, [op.description]));
        parameters(op).forEach(function (node) { section.appendChild(node); });
        if (op.requestBody) {
          var body = op.requestBody.content['application/json'];
          section.appendChild(el('h4', {}, ['Request body']));
          section.appendChild(el('details', {}, [el('summary', {}, ['Schema']), json(resolve(spec, body.schema))]));
          examples(body).forEach(function (node) { section.appendChild(node); });
        }
        section.appendChild(el('h4', {}, ['Responses']));
        Object.keys(op.responses).forEach(function (status) {
          var response = op.responses[status];
          var content = response.content && response.content['application/json'];
          var block = el('details', {}, [el('summary', {}, [el('span', { class: 'status' }, [status]), ' ' + response.description.split('\\n')[0]])]);
          block.appendChild(el('p', { class: 'intro' }, [response.description]));
          if (content) {
            block.appendChild(json(resolve(spec, content.schema)));
            examples(content).forEach(function (node) { block.appendChild(node); });
          }
          section.appendChild(block);
        });
        root.appendChild(section);
      });
    });
    root.appendChild(el('h2', {}, ['Schemas']));
    Object.keys(spec.components.schemas).forEach(function (name) {
      root.appendChild(el('details', { id: 'schema-' + name }, [el('summary', {}, [name]), json(spec.components.schemas[name])]));
    });
  }
  fetch('/openapi.json').then(function (response) { return response.json(); }).then(render, function (error) {
    root.textContent = 'Could not load /openapi.json: ' + error;
  });
})();
`;
