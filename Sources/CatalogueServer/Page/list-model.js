// What one search returned, laid out for the list: each section's place in a tall "virtual"
// column (a header, then `count` rows of one fixed height), and the batches of rows loaded so
// far. Nothing here touches the DOM.

/** Rows per batch request (`/api/{entity}/sections/{title}?offset=&limit=`). */
export const BATCH_SIZE = 50;

export class ListModel {
  /**
   * @param {object} options
   * @param {string} options.entity        "countries" or "products"
   * @param {object} options.search        {q, scope, match} the sections were asked for
   * @param {Array}  options.sections      [{title, count}] from /api/{entity}/sections
   * @param {Array}  options.indexTitles   the full index (A–Z, #), empty when unsectioned
   * @param {number} options.rowHeight     px
   * @param {number} options.headerHeight  px (an untitled section has no header)
   */
  constructor({ entity, search, sections, indexTitles, rowHeight, headerHeight }) {
    this.entity = entity;
    this.search = search;
    this.indexTitles = indexTitles;
    this.rowHeight = rowHeight;
    let y = 0;
    let first = 0;
    this.sections = sections.map((section, index) => {
      const header = section.title === "" ? 0 : headerHeight;
      const laid = {
        index,
        title: section.title,
        count: section.count,
        top: y, // where its header starts
        rowsTop: y + header, // where its first row starts
        first, // the list-wide index of its first row
      };
      y = laid.rowsTop + section.count * rowHeight;
      laid.bottom = y;
      first += section.count;
      return laid;
    });
    this.height = y;
    this.total = first;
    /** "section:batch" → {items, highlights}; in least-recently-used order. */
    this.batches = new Map();
    /** "section:batch" → {controller, promise} for requests under way. */
    this.loading = new Map();
    /** "section:batch" → time of the last failure, so a failing batch is retried slowly. */
    this.failed = new Map();
  }

  /** The section whose header or rows cover virtual position `y` (the last one starting at or above it). */
  sectionAt(y) {
    let low = 0;
    let high = this.sections.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.sections[middle].top <= y) low = middle;
      else high = middle - 1;
    }
    return this.sections[low];
  }

  /** The position {s, r} of the list-wide row index `index`. */
  positionAt(index) {
    let low = 0;
    let high = this.sections.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.sections[middle].first <= index) low = middle;
      else high = middle - 1;
    }
    const section = this.sections[low];
    return { s: low, r: Math.min(index - section.first, section.count - 1) };
  }

  /** The list-wide index of a position. */
  indexOf(position) {
    return this.sections[position.s].first + position.r;
  }

  /** The position of row `offset` of the section titled `title`, or null. */
  positionOf(title, offset) {
    const section = this.sections.find((candidate) => candidate.title === title);
    if (!section || offset < 0 || offset >= section.count) return null;
    return { s: section.index, r: offset };
  }

  /** The virtual y of a row's top. */
  rowTop(position) {
    return this.sections[position.s].rowsTop + position.r * this.rowHeight;
  }

  /** The cache key of the batch holding a position. */
  batchKey(position) {
    return `${position.s}:${Math.floor(position.r / BATCH_SIZE)}`;
  }

  /** The loaded record at a position: {item, highlight}, or null while its batch loads. */
  entry(position) {
    const batch = this.batches.get(this.batchKey(position));
    if (!batch) return null;
    const index = position.r % BATCH_SIZE;
    const item = batch.items[index];
    return item === undefined ? null : { item, highlight: batch.highlights[index] ?? {} };
  }

  /** The section a title of the full index jumps to: its own, else the next that exists, else the last. */
  sectionForIndexTitle(title) {
    if (this.sections.length === 0) return null;
    const exact = this.sections.find((section) => section.title === title);
    if (exact) return exact;
    const rank = (name) => {
      const place = this.indexTitles.indexOf(name);
      return place < 0 ? this.indexTitles.length : place;
    };
    const wanted = rank(title);
    return this.sections.find((section) => rank(section.title) > wanted) ?? this.sections[this.sections.length - 1];
  }

  /** Stops every request this model started (it was replaced, or never shown). */
  abortAll() {
    for (const { controller } of this.loading.values()) controller.abort();
    this.loading.clear();
  }
}
