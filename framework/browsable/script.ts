/**
 * Sends a raw-JSON form with its method (HTML forms know only GET and POST), the session's CSRF
 * token when there is one, and shows the answer under the forms.
 */
export const FORM_SCRIPT = `
document.querySelectorAll('form.raw-form').forEach(function (form) {
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var method = form.getAttribute('data-method');
    var area = form.querySelector('textarea');
    var headers = { 'Accept': 'application/json' };
    var csrf = document.querySelector('meta[name="csrf-token"]');
    if (csrf) headers['X-CSRFToken'] = csrf.getAttribute('content');
    var init = { method: method, headers: headers, credentials: 'same-origin' };
    if (area && area.value.trim() !== '') { headers['Content-Type'] = 'application/json'; init.body = area.value; }
    var out = document.querySelector('pre.form-result');
    fetch(form.getAttribute('data-url'), init).then(function (res) {
      return res.text().then(function (text) {
        out.hidden = false;
        out.textContent = 'HTTP ' + res.status + '\\n' + text;
      });
    });
  });
});
`;
