// What the consults benchmark measures inside the window. Runs in every page before its own
// scripts (page-side code is plain JavaScript: the bench's tsconfig has no DOM types). Every
// time is taken in the page, from the event's own timestamp to just after the next frame is
// produced (requestAnimationFrame, then a message, which runs once that frame's rendering is
// done), so Playwright's round trips are not in it.
export const PAGE_PROBE = `(() => {
  const b = (window.__bench = { longTasks: [], keyFrames: [], typing: false, lastKeyAt: 0, clickAt: null, listAt: null, listFrame: null });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });
  const afterFrame = (fn) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => fn(performance.now()); c.port2.postMessage(null); });
  const watch = (found) => {
    if (found()) return;
    const mo = new MutationObserver(() => { if (found()) mo.disconnect(); });
    mo.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  };
  b.elements = () => document.getElementsByTagName('*').length;
  b.rows = () => document.querySelectorAll('.consults-view article').length;
  // Opening Consults from the sidebar: the click's timestamp, the first DOM change with a row in it, the frame after.
  document.addEventListener('click', (e) => {
    const nav = e.target instanceof Element ? e.target.closest('nav[aria-label="Main"] button') : null;
    if (!nav || !/^Consults/.test(nav.textContent)) return;
    b.clickAt = e.timeStamp; b.listAt = null; b.listFrame = null;
    watch(() => {
      if (b.listAt !== null || !document.querySelector('.consults-view article')) return false;
      b.listAt = performance.now();
      afterFrame((t) => (b.listFrame = t));
      return true;
    });
  }, true);
  // Each key typed while b.typing: its timestamp to the frame after it.
  document.addEventListener('keydown', (e) => {
    if (!b.typing) return;
    const t0 = e.timeStamp;
    b.lastKeyAt = t0;
    afterFrame((t) => b.keyFrames.push(t - t0));
  }, true);
  // The next event of a type (a filter changed): its timestamp to the frame after it.
  b.arm = (type) => { b.armed = new Promise((resolve) => document.addEventListener(type, (e) => { const t0 = e.timeStamp; afterFrame((t) => resolve(t - t0)); }, { capture: true, once: true })); };
  // The count line starting with want (the search's answer on screen): ms after the last key, at the DOM change and after the frame.
  b.untilCount = (want) => new Promise((resolve) => {
    const since = b.lastKeyAt;
    watch(() => {
      const text = document.querySelector('.consults-count')?.textContent ?? '';
      if (!text.startsWith(want)) return false;
      const at = performance.now();
      afterFrame((t) => resolve({ dom: at - since, frame: t - since, rows: b.rows(), elements: b.elements() }));
      return true;
    });
  });
  // From the top of the page to its bottom, scrolled by step px at every frame (a fast fling,
  // a new screenful at each frame), with each frame's interval; stops at the bottom or after maxMs.
  b.scroll = (step, maxMs) => new Promise((resolve) => {
    const el = document.scrollingElement;
    el.scrollTop = 0;
    const frames = [];
    let last = null, began = null, maxElements = 0, maxRows = 0, n = 0;
    const tick = (ts) => {
      if (began === null) began = ts;
      else frames.push(ts - last);
      last = ts;
      if (n++ % 5 === 0) { maxElements = Math.max(maxElements, b.elements()); maxRows = Math.max(maxRows, b.rows()); }
      const bottom = el.scrollTop + window.innerHeight >= el.scrollHeight - 2;
      if (bottom || ts - began > maxMs) {
        // The last row on screen, not merely in the page: a list that renders every row always has the oldest in it.
        const onScreen = [...document.querySelectorAll('.consults-view article')].filter((a) => { const r = a.getBoundingClientRect(); return r.bottom > 0 && r.top < window.innerHeight; });
        const lastTitle = onScreen.at(-1)?.querySelector('h3')?.textContent ?? null;
        resolve({ frames, ms: ts - began, px: el.scrollTop, height: el.scrollHeight, bottom, maxElements, maxRows, lastTitle, began });
        return;
      }
      el.scrollTop += step;
      requestAnimationFrame(tick);
    };
    // Two frames first, so the jump to the top is not counted.
    requestAnimationFrame(() => requestAnimationFrame(tick));
  });
})();`;
