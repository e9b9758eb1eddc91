/**
 * The browsable page's script, inline and framework-free: sends the HTML and raw-JSON forms with
 * their method (HTML forms know only GET and POST) and the session's CSRF token, shows the answer,
 * fills the related-object selects from the API, switches the form tabs and leaves empty filters
 * out of the query.
 */
export const FORM_SCRIPT = `
(function () {
  var out = document.querySelector('pre.form-result');

  function show(status, statusText, text) {
    var body = text;
    try { body = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: as it came */ }
    out.hidden = false;
    out.textContent = 'HTTP ' + status + (statusText ? ' ' + statusText : '') + '\\n' + body;
    out.scrollIntoView({ block: 'nearest' });
  }

  function send(method, url, body) {
    var headers = { 'Accept': 'application/json' };
    var csrf = document.querySelector('meta[name="csrf-token"]');
    if (csrf) headers['X-CSRFToken'] = csrf.getAttribute('content');
    var init = { method: method, headers: headers, credentials: 'same-origin' };
    if (body !== undefined) { headers['Content-Type'] = 'application/json'; init.body = body; }
    return fetch(url, init).then(function (res) {
      return res.text().then(function (text) { show(res.status, res.statusText, text); });
    }, function (err) { show(0, 'request failed', String(err)); });
  }

  function methodOf(event, form) {
    if (event.submitter && event.submitter.value) return event.submitter.value;
    var first = form.querySelector('button[type=submit]');
    return first ? first.value : 'POST';
  }

  document.querySelectorAll('form.raw-form').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var method = methodOf(event, form);
      var area = form.querySelector('textarea');
      var text = area ? area.value.trim() : '';
      send(method, form.getAttribute('data-url'), method !== 'DELETE' && text !== '' ? text : undefined);
    });
  });

  document.querySelectorAll('button.request-button').forEach(function (button) {
    button.addEventListener('click', function () {
      var question = button.getAttribute('data-confirm');
      if (question && !window.confirm(question)) return;
      send(button.getAttribute('data-method'), button.getAttribute('data-url'));
    });
  });

  document.querySelectorAll('.tabs button[data-tab]').forEach(function (tab) {
    tab.addEventListener('click', function () {
      var section = tab.closest('section');
      section.querySelectorAll('.tabs button[data-tab]').forEach(function (t) { t.setAttribute('aria-selected', String(t === tab)); });
      section.querySelectorAll('.tab-panel').forEach(function (p) { p.hidden = p.getAttribute('data-panel') !== tab.getAttribute('data-tab'); });
    });
  });

  /** A control's value as JSON; undefined leaves the field out. */
  function encode(el) {
    var kind = el.getAttribute('data-kind');
    var numeric = el.hasAttribute('data-numeric');
    if (kind === 'bool') return el.checked;
    if (el.multiple) return [].map.call(el.selectedOptions, function (o) { return numeric ? Number(o.value) : o.value; });
    var v = el.value;
    if (kind === 'ids') {
      return v.split(/[\\s,]+/).filter(Boolean).map(function (x) { return numeric ? Number(x) : x; });
    }
    if (kind === 'json') {
      if (v.trim() === '') return undefined;
      try { return JSON.parse(v); } catch (e) { throw new Error(el.name + ': ' + e.message); }
    }
    if (v === '') return kind === 'text' && !el.hasAttribute('data-nullable') ? '' : null;
    if (kind === 'number' || numeric) return Number(v);
    return v;
  }

  function isEmpty(value) {
    return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
  }

  document.querySelectorAll('form.html-form').forEach(function (form) {
    var initial = {};
    form.querySelectorAll('[data-kind]').forEach(function (el) {
      try { initial[el.name] = JSON.stringify(encode(el)); } catch (e) { initial[el.name] = null; }
    });
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var method = methodOf(event, form);
      var body = {};
      try {
        form.querySelectorAll('[data-kind]').forEach(function (el) {
          var value = encode(el);
          if (value === undefined) return;
          if (method === 'POST' && isEmpty(value)) return;
          if (method === 'PATCH' && JSON.stringify(value) === initial[el.name]) return;
          body[el.name] = value;
        });
      } catch (e) {
        show(0, 'invalid form', e.message);
        return;
      }
      send(method, form.getAttribute('data-url'), JSON.stringify(body));
    });
  });

  /** Too many objects to list: a text input for the id, suggesting those read. */
  function toText(select, results) {
    var input = document.createElement('input');
    input.type = 'text';
    ['id', 'name', 'data-numeric', 'data-nullable'].forEach(function (a) { if (select.hasAttribute(a)) input.setAttribute(a, select.getAttribute(a)); });
    input.setAttribute('data-kind', select.multiple ? 'ids' : 'related');
    var chosen = [].filter.call(select.options, function (o) { return o.selected && o.value !== ''; }).map(function (o) { return o.value; });
    input.value = chosen.join(', ');
    var key = select.getAttribute('data-value-key') || 'id';
    input.placeholder = select.multiple ? key + 's, separated by commas' : key;
    if (results && results.length) {
      var list = document.createElement('datalist');
      list.id = select.id + '-options';
      results.forEach(function (o) {
        var opt = document.createElement('option');
        opt.value = o[key] !== undefined && o[key] !== null ? o[key] : o.id;
        opt.label = o.display || o.name || opt.value;
        list.appendChild(opt);
      });
      input.setAttribute('list', list.id);
      select.parentNode.insertBefore(list, select);
    }
    select.parentNode.replaceChild(input, select);
  }

  document.querySelectorAll('select[data-related]').forEach(function (select) {
    var key = select.getAttribute('data-value-key') || 'id';
    var url = select.getAttribute('data-related') + '?brief=1&limit=50';
    fetch(url, { headers: { 'Accept': 'application/json' }, credentials: 'same-origin' })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (page) {
        if (!page || !Array.isArray(page.results)) { toText(select); return; }
        if (page.count > page.results.length) { toText(select, page.results); return; }
        var present = {};
        [].forEach.call(select.options, function (o) { present[o.value] = o; });
        page.results.forEach(function (o) {
          var value = String(o[key] !== undefined && o[key] !== null ? o[key] : o.id);
          var label = o.display || o.name || value;
          if (present[value]) { present[value].textContent = label; return; }
          var opt = document.createElement('option');
          opt.value = value;
          opt.textContent = label;
          select.appendChild(opt);
        });
        select.setAttribute('data-loaded', String(page.results.length));
      }, function () { toText(select); });
  });

  document.querySelectorAll('form.filter-form').forEach(function (form) {
    form.addEventListener('submit', function () {
      form.querySelectorAll('input, select').forEach(function (el) { if (el.value === '') el.disabled = true; });
    });
  });
  // Back to a page whose filter form left its empty fields disabled.
  window.addEventListener('pageshow', function () {
    document.querySelectorAll('form.filter-form [disabled]').forEach(function (el) { el.disabled = false; });
  });
})();
`;
