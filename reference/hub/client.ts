/**
 * The hub page's only script (plain ES2020, no framework), inlined under the page's nonce.
 *
 * - Navigation: the sidebar links and the tabs show one dashboard at a time.
 * - Openers: a button with `data-opens` shows its dialog or toggles its region.
 * - §2.2 drillDown: a point's button reloads the page with `drillChart`/`drillValue` set.
 * - §4.17 filter changes: reported to the parent as `embed:params` (decision
 *   hub.events.embed-params-shape), then the page reloads with the new `filter_*` values.
 * - §4.17 autoHeight: the content height goes to the parent as `embed:height`.
 * Messages go to `parentOrigin` only, never to `*`; without it nothing is posted (decision
 * hub.events.target-origin).
 */
export const CLIENT_SCRIPT = `(() => {
  const cfg = JSON.parse(document.getElementById('eac-page').textContent);
  const post = (message) => {
    if (cfg.parentOrigin && window.parent !== window) window.parent.postMessage(message, cfg.parentOrigin);
  };
  const show = (id) => {
    document.querySelectorAll('section[data-dashboard]').forEach((p) => { p.hidden = p.dataset.dashboard !== id; });
    document.querySelectorAll('[role=tab][data-dashboard]').forEach((t) => t.setAttribute('aria-selected', String(t.dataset.dashboard === id)));
    document.querySelectorAll('nav a[data-dashboard]').forEach((a) => {
      if (a.dataset.dashboard === id) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
  };
  document.querySelectorAll('[data-dashboard]').forEach((el) => {
    if (el.tagName === 'SECTION') return;
    el.addEventListener('click', (event) => { event.preventDefault(); show(el.dataset.dashboard); });
  });
  document.querySelectorAll('[data-opens]').forEach((b) => b.addEventListener('click', () => {
    const target = document.getElementById(b.dataset.opens);
    if (!target) return;
    if (target.tagName === 'DIALOG') { target.showModal(); return; }
    target.hidden = !target.hidden;
    b.setAttribute('aria-expanded', String(!target.hidden));
  }));
  document.querySelectorAll('[data-closes]').forEach((b) => b.addEventListener('click', () => {
    const target = document.getElementById(b.dataset.closes);
    if (target) target.close();
  }));
  // §2.2 drillDown: the page reloads showing the rows behind the point (or hiding them again).
  document.querySelectorAll('button[data-drill-chart]').forEach((b) => b.addEventListener('click', () => {
    const url = new URL(window.location.href);
    if (b.getAttribute('aria-expanded') === 'true') {
      url.searchParams.delete('drillChart');
      url.searchParams.delete('drillValue');
    } else {
      url.searchParams.set('drillChart', b.dataset.drillChart);
      url.searchParams.set('drillValue', b.dataset.drillValue);
    }
    window.location.replace(url.toString());
  }));
  const drilled = document.querySelector('[data-drilled]');
  if (drilled) drilled.focus();
  let applying = false;
  const apply = (form) => {
    if (applying) return;
    applying = true;
    const url = new URL(window.location.href);
    form.querySelectorAll('input[name^="filter_"]').forEach((input) => {
      const raw = input.value;
      if (raw === '') { url.searchParams.delete(input.name); return; }
      let value = raw;
      try { value = JSON.parse(raw); } catch (e) { value = raw; }
      url.searchParams.set(input.name, JSON.stringify(value));
    });
    const params = {};
    url.searchParams.forEach((v, k) => { if (k.startsWith('filter_')) params[k] = v; });
    post({ type: 'embed:params', params });
    window.location.replace(url.toString());
  };
  document.querySelectorAll('form[data-filters]').forEach((form) => {
    form.addEventListener('submit', (event) => { event.preventDefault(); apply(form); });
    form.querySelectorAll('input').forEach((input) => input.addEventListener('change', () => apply(form)));
  });
  if (cfg.autoHeight) {
    let last = -1;
    const report = () => {
      const height = Math.ceil(document.documentElement.scrollHeight);
      if (height === last) return;
      last = height;
      post({ type: 'embed:height', height });
    };
    report();
    if (typeof ResizeObserver === 'function') new ResizeObserver(report).observe(document.body);
  }
})();`;
