// The sectioned list on screen: a virtual UITableView. The model lays every section out in a
// virtual column (header + rows of one fixed height); only the rows near the viewport exist as
// elements, and their batches are fetched as they come near. A catalogue of 1,000,000
// products is a column of 56,000,000 px, taller than browsers lay out (Chromium stops near
// 33,554,000 px), so past MAX_SCROLL_PX the scrollbar's range is mapped onto the column
// proportionally and rows are placed relative to the current scroll position.
//
// The header of the section at the top is drawn in an overlay ("pinned") that the next
// header pushes up, as UITableView's plain style does.

import { BATCH_SIZE } from "./list-model.js";

const OVERSCAN_PX = 480; // rows made ready above and below the viewport
const KEEP_LOADING_PX = 2400; // a batch request further than this from the viewport is cancelled
const MAX_SCROLL_PX = 8_000_000; // the tallest scroll area we ask the browser for
const MAX_BATCHES = 200; // batches kept per model (10,000 rows) before the farthest are dropped
const RETRY_MS = 2000; // a failed batch is asked for again after this long

export class SectionedList {
  /**
   * @param {object} options
   * @param {HTMLElement} options.scroller   the scrolling element (role=listbox)
   * @param {HTMLElement} options.content    holds the rows; sized to the scroll range
   * @param {HTMLElement} options.pinned     the overlay header of the top section
   * @param {number} options.headerHeight    px
   * @param {(model, section, offset, limit, signal) => Promise} options.fetchBatch
   * @param {(row, model, entry) => void} options.fillRow       fills a row with a record
   * @param {(row) => void} options.fillPlaceholder            fills a row while it loads
   * @param {(position) => void} options.onRowClick
   * @param {(title) => void} options.onTopSection             the pinned section changed
   */
  constructor(options) {
    Object.assign(this, options);
    this.model = null;
    this.selection = null; // {s, r}
    this.elements = new Map(); // "r:s:r" or "h:s" → element
    this.anchor = null; // {scrollTop, virtualTop} of the last programmatic scroll
    this.topSection = undefined;
    this.renderQueued = false;
    this.scroller.addEventListener("scroll", () => this.render(), { passive: true });
    new ResizeObserver(() => this.render()).observe(this.scroller);
    this.content.addEventListener("click", (event) => {
      const row = event.target.closest(".row");
      if (row) this.onRowClick({ s: Number(row.dataset.s), r: Number(row.dataset.r) });
    });
  }

  // --- Geometry -------------------------------------------------------------------------

  get viewportHeight() {
    return this.scroller.clientHeight;
  }

  /** The height of the scroll area for a model: the column itself, or at most MAX_SCROLL_PX. */
  scrollHeightFor(model) {
    return Math.min(model.height, MAX_SCROLL_PX);
  }

  /** How many virtual px one scrolled px stands for (1 unless the column is too tall). */
  scale(model = this.model) {
    const range = this.scrollHeightFor(model) - this.viewportHeight;
    const virtualRange = model.height - this.viewportHeight;
    return range > 0 && virtualRange > range ? virtualRange / range : 1;
  }

  /** The virtual y shown at the top of the viewport. */
  virtualTop() {
    const scrollTop = this.scroller.scrollTop;
    if (this.anchor && Math.abs(this.anchor.scrollTop - scrollTop) < 1) return this.anchor.virtualTop;
    return scrollTop * this.scale();
  }

  /** The largest useful virtual top for a model. */
  maxVirtualTop(model = this.model) {
    return Math.max(0, model.height - this.viewportHeight);
  }

  /** Scrolls so that virtual y `top` is at the top of the viewport. */
  setVirtualTop(top) {
    const clamped = Math.min(Math.max(0, top), this.maxVirtualTop());
    this.scroller.scrollTop = clamped / this.scale();
    this.anchor = { scrollTop: this.scroller.scrollTop, virtualTop: clamped };
    this.render();
  }

  /** The height the pinned header covers at the top of the viewport. */
  pinnedHeight(model = this.model) {
    return model && model.sections.length > 0 && model.sections[0].title !== "" ? this.headerHeight : 0;
  }

  /** The virtual top that shows `position` in the middle of the viewport. */
  topCentering(model, position) {
    const y = model.rowTop(position);
    return Math.min(Math.max(0, y - (this.viewportHeight - model.rowHeight) / 2), this.maxVirtualTop(model));
  }

  /** Rows a page (PgUp/PgDn) moves by. */
  pageRows() {
    const model = this.model;
    return Math.max(1, Math.floor((this.viewportHeight - this.pinnedHeight()) / (model ? model.rowHeight : 1)) - 1);
  }

  /** The first row fully below the pinned header, or null when the list is empty. */
  firstVisiblePosition() {
    const model = this.model;
    if (!model || model.total === 0) return null;
    const y = this.virtualTop() + this.pinnedHeight();
    let section = model.sectionAt(y);
    let r = Math.max(0, Math.ceil((y - section.rowsTop) / model.rowHeight));
    while (r >= section.count && section.index + 1 < model.sections.length) {
      section = model.sections[section.index + 1];
      r = 0;
    }
    return { s: section.index, r: Math.min(r, section.count - 1) };
  }

  // --- Showing a model --------------------------------------------------------------------

  /**
   * Loads the batches that a model shows at virtual top `top`, so that it can replace the
   * current one without a flash of placeholders. Resolves (never rejects) when they settle.
   */
  prepare(model, top) {
    const promises = [];
    for (const key of this.batchKeysIn(model, top, top + this.viewportHeight)) {
      const promise = this.ensureBatch(model, key);
      if (promise) promises.push(promise);
    }
    return Promise.allSettled(promises);
  }

  /** Replaces the shown model, scrolled to virtual top `top`, with `selection` (or none). */
  show(model, top, selection) {
    if (this.model && this.model !== model) this.model.abortAll();
    this.model = model;
    this.selection = selection;
    this.elements.clear();
    this.content.replaceChildren();
    this.content.style.height = `${this.scrollHeightFor(model)}px`;
    this.topSection = undefined;
    this.setVirtualTop(top);
  }

  /** Selects a position (or none) and shows it. */
  select(position, { reveal = true } = {}) {
    this.selection = position;
    if (position && reveal) this.reveal(position);
    else this.render();
  }

  /** Scrolls the least needed to show a row whole, below the pinned header. */
  reveal(position) {
    const model = this.model;
    const y = model.rowTop(position);
    const top = this.virtualTop();
    const covered = model.sections[position.s].title === "" ? 0 : this.headerHeight;
    if (y - covered < top) this.setVirtualTop(y - covered);
    else if (y + model.rowHeight > top + this.viewportHeight) this.setVirtualTop(y + model.rowHeight - this.viewportHeight);
    else this.render();
  }

  /** Scrolls a section's header to the top. */
  scrollToSection(section) {
    this.setVirtualTop(section.top);
  }

  /** The record at a position once its batch has loaded (null if it cannot be loaded). */
  async entryWhenLoaded(position) {
    const model = this.model;
    const ready = model.entry(position);
    if (ready) return ready;
    await this.ensureBatch(model, model.batchKey(position), { force: true });
    return this.model === model ? model.entry(position) : null;
  }

  // --- Batches ----------------------------------------------------------------------------

  /** The batch keys covering virtual range [from, to) of a model. */
  batchKeysIn(model, from, to) {
    const keys = [];
    for (const section of model.sections) {
      if (section.bottom <= from || section.rowsTop >= to || section.count === 0) continue;
      const first = Math.max(0, Math.floor((from - section.rowsTop) / model.rowHeight));
      const last = Math.min(section.count - 1, Math.floor((to - section.rowsTop) / model.rowHeight));
      for (let b = Math.floor(first / BATCH_SIZE); b <= Math.floor(last / BATCH_SIZE); b++) {
        keys.push(`${section.index}:${b}`);
      }
    }
    return keys;
  }

  /** Starts loading a batch unless it is loaded or loading; returns the request's promise. */
  ensureBatch(model, key, { force = false } = {}) {
    if (model.batches.has(key)) {
      const batch = model.batches.get(key); // keep least-recently-used order
      model.batches.delete(key);
      model.batches.set(key, batch);
      return null;
    }
    if (model.loading.has(key)) return model.loading.get(key).promise;
    const failedAt = model.failed.get(key);
    if (!force && failedAt !== undefined && performance.now() - failedAt < RETRY_MS) return null;
    const [s, b] = key.split(":").map(Number);
    const controller = new AbortController();
    const promise = this.fetchBatch(model, model.sections[s], b * BATCH_SIZE, BATCH_SIZE, controller.signal)
      .then((batch) => {
        model.batches.set(key, { items: batch.items, highlights: batch.highlights });
        model.failed.delete(key);
        this.evict(model);
      })
      .catch((error) => {
        if (error.name !== "AbortError") model.failed.set(key, performance.now());
      })
      .finally(() => {
        if (model.loading.get(key)?.controller === controller) model.loading.delete(key);
        if (this.model === model) this.scheduleRender();
      });
    model.loading.set(key, { controller, promise });
    return promise;
  }

  /** Drops the least recently used batches beyond MAX_BATCHES (never the ones on screen). */
  evict(model) {
    if (model.batches.size <= MAX_BATCHES) return;
    const top = this.model === model ? this.virtualTop() : 0;
    const onScreen = new Set(this.batchKeysIn(model, top - OVERSCAN_PX, top + this.viewportHeight + OVERSCAN_PX));
    for (const key of model.batches.keys()) {
      if (model.batches.size <= MAX_BATCHES) break;
      if (!onScreen.has(key)) model.batches.delete(key);
    }
  }

  // --- Rendering --------------------------------------------------------------------------

  scheduleRender() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      this.render();
    });
  }

  /** Places the headers and rows near the viewport, drops the others, pins the top header. */
  render() {
    const model = this.model;
    if (!model) return;
    const top = this.virtualTop();
    const height = this.viewportHeight;
    // Where virtual y lands in the content element (0 unless the column is compressed).
    const shift = this.scroller.scrollTop - top;
    const from = top - OVERSCAN_PX;
    const to = top + height + OVERSCAN_PX;
    const wanted = new Set();

    for (const section of model.sections) {
      if (section.bottom <= from || section.top >= to) continue;
      if (section.title !== "" && section.rowsTop > from) {
        const key = `h:${section.index}`;
        wanted.add(key);
        this.place(key, section.top + shift, () => this.makeHeader(section));
      }
      if (section.count === 0) continue;
      const first = Math.max(0, Math.floor((from - section.rowsTop) / model.rowHeight));
      const last = Math.min(section.count - 1, Math.floor((to - section.rowsTop) / model.rowHeight));
      for (let r = first; r <= last; r++) {
        const key = `r:${section.index}:${r}`;
        wanted.add(key);
        const row = this.place(key, section.rowsTop + r * model.rowHeight + shift, () => this.makeRow(model, section, r));
        this.updateRow(row, model, { s: section.index, r });
      }
    }
    for (const [key, element] of this.elements) {
      if (!wanted.has(key)) {
        element.remove();
        this.elements.delete(key);
      }
    }
    this.loadAround(model, top, height);
    this.pin(model, top);
  }

  /** Puts the element for `key` at content y `y`, creating it with `make` if needed. */
  place(key, y, make) {
    let element = this.elements.get(key);
    if (!element) {
      element = make();
      this.elements.set(key, element);
      this.content.append(element);
    }
    if (element.placedAt !== y) {
      element.style.transform = `translateY(${y}px)`;
      element.placedAt = y;
    }
    return element;
  }

  makeHeader(section) {
    const header = document.createElement("div");
    header.className = "section-header";
    header.setAttribute("aria-hidden", "true");
    header.dataset.section = section.title;
    header.textContent = section.title;
    return header;
  }

  makeRow(model, section, r) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "option");
    row.id = `opt-${section.index}-${r}`;
    row.dataset.s = String(section.index);
    row.dataset.r = String(r);
    row.dataset.section = section.title;
    row.setAttribute("aria-setsize", String(model.total));
    row.setAttribute("aria-posinset", String(section.first + r + 1));
    row.setAttribute("aria-selected", "false");
    return row;
  }

  /** Fills a row once its record is there, and marks it selected or not. */
  updateRow(row, model, position) {
    if (row.dataset.filled !== "1") {
      const entry = model.entry(position);
      if (entry) {
        row.removeAttribute("aria-busy");
        this.fillRow(row, model, entry);
        row.dataset.filled = "1";
      } else if (row.dataset.filled !== "0") {
        this.fillPlaceholder(row);
        row.dataset.filled = "0";
      }
    }
    const selected = this.selection !== null && this.selection.s === position.s && this.selection.r === position.r;
    if ((row.getAttribute("aria-selected") === "true") !== selected) {
      row.setAttribute("aria-selected", String(selected));
    }
  }

  /** Requests the batches near the viewport and cancels those far from it. */
  loadAround(model, top, height) {
    for (const key of this.batchKeysIn(model, top - OVERSCAN_PX, top + height + OVERSCAN_PX)) {
      this.ensureBatch(model, key);
    }
    if (model.loading.size === 0) return;
    const keep = new Set(this.batchKeysIn(model, top - KEEP_LOADING_PX, top + height + KEEP_LOADING_PX));
    for (const [key, { controller }] of model.loading) {
      if (!keep.has(key)) {
        controller.abort();
        model.loading.delete(key);
      }
    }
  }

  /** Draws the top section's header in the overlay; the next header pushes it up. */
  pin(model, top) {
    if (model.sections.length === 0 || model.sections[0].title === "") {
      this.pinned.hidden = true;
      this.reportTopSection(null);
      return;
    }
    const section = model.sectionAt(top);
    const next = model.sections[section.index + 1];
    const push = next ? Math.min(0, next.top - top - this.headerHeight) : 0;
    this.pinned.hidden = false;
    if (this.pinned.textContent !== section.title) this.pinned.textContent = section.title;
    this.pinned.dataset.section = section.title;
    this.pinned.style.transform = `translateY(${push}px)`;
    this.reportTopSection(section.title);
  }

  reportTopSection(title) {
    if (this.topSection === title) return;
    this.topSection = title;
    this.onTopSection(title);
  }
}
