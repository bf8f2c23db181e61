// The section index at the right edge (UITableView's sectionIndexTitles): a magnifier that
// goes back to the top (UITableViewIndexSearch), then A–Z and #. Pressing an entry jumps to its
// section, and so does dragging along the index, with a mouse, a pen or a finger (pointer
// events with pointer capture; `touch-action: none` keeps the browser from scrolling instead).
// From the keyboard the index is one tab stop; ↑↓ move along it and Enter jumps.

const SEARCH_ENTRY = "";

export class SectionIndex {
  /**
   * @param {HTMLElement} nav                 the <nav> element
   * @param {(title: string|null) => void} onJump  null: the magnifier (top of the list)
   */
  constructor(nav, onJump) {
    this.nav = nav;
    this.onJump = onJump;
    this.entries = [];
    this.dragging = null; // the pointer id while a drag is under way
    this.lastJump = undefined;
    nav.addEventListener("pointerdown", (event) => this.pointerDown(event));
    nav.addEventListener("pointermove", (event) => this.pointerMove(event));
    nav.addEventListener("pointerup", (event) => this.pointerEnd(event));
    nav.addEventListener("pointercancel", (event) => this.pointerEnd(event));
    nav.addEventListener("lostpointercapture", (event) => this.pointerEnd(event));
    nav.addEventListener("click", (event) => {
      // Pointer presses jumped already; a click with detail 0 comes from Enter or Space.
      const entry = event.target.closest("button");
      if (entry && event.detail === 0) this.jump(entry);
    });
    nav.addEventListener("keydown", (event) => this.keyDown(event));
  }

  /** Shows the index titles; titles in `present` have a section, the others jump to the next. */
  setTitles(titles, present) {
    this.nav.replaceChildren();
    this.entries = [];
    this.nav.hidden = titles.length === 0;
    if (titles.length === 0) return;
    const list = document.createElement("ul");
    for (const title of [SEARCH_ENTRY, ...titles]) {
      const item = document.createElement("li");
      const entry = document.createElement("button");
      entry.type = "button";
      entry.dataset.title = title;
      entry.tabIndex = -1;
      if (title === SEARCH_ENTRY) {
        entry.className = "index-search";
        entry.setAttribute("aria-label", "Top of the list");
        entry.append(document.getElementById("index-search-icon").content.cloneNode(true));
      } else {
        entry.textContent = title;
        entry.setAttribute("aria-label", `Section ${title}`);
        if (!present.has(title)) entry.classList.add("absent");
      }
      item.append(entry);
      list.append(item);
      this.entries.push(entry);
    }
    this.nav.append(list);
    this.entries[1].tabIndex = 0; // the index is one tab stop (roving tabindex)
  }

  /** Marks the entry of the section at the top of the list. */
  setCurrent(title) {
    for (const entry of this.entries) {
      const current = title !== null && entry.dataset.title === title;
      if (current) entry.setAttribute("aria-current", "true");
      else entry.removeAttribute("aria-current");
    }
  }

  /** The entry nearest to a viewport y (the index is one column, so only y matters). */
  entryAt(clientY) {
    let best = null;
    let bestDistance = Infinity;
    for (const entry of this.entries) {
      const box = entry.getBoundingClientRect();
      if (clientY >= box.top && clientY < box.bottom) return entry;
      const distance = Math.min(Math.abs(clientY - box.top), Math.abs(clientY - box.bottom));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = entry;
      }
    }
    return best;
  }

  jump(entry) {
    const title = entry.dataset.title === SEARCH_ENTRY ? null : entry.dataset.title;
    this.lastJump = title;
    this.onJump(title);
  }

  pointerDown(event) {
    if (event.button !== 0 || this.entries.length === 0) return;
    event.preventDefault(); // no text selection, no focus steal
    this.dragging = event.pointerId;
    this.nav.setPointerCapture(event.pointerId);
    this.nav.classList.add("active");
    this.lastJump = undefined;
    const entry = this.entryAt(event.clientY);
    if (entry) this.jump(entry);
  }

  pointerMove(event) {
    if (this.dragging !== event.pointerId) return;
    event.preventDefault();
    const entry = this.entryAt(event.clientY);
    const title = entry && (entry.dataset.title === SEARCH_ENTRY ? null : entry.dataset.title);
    if (entry && title !== this.lastJump) this.jump(entry);
  }

  pointerEnd(event) {
    if (this.dragging !== event.pointerId) return;
    this.dragging = null;
    this.nav.classList.remove("active");
    if (this.nav.hasPointerCapture(event.pointerId)) this.nav.releasePointerCapture(event.pointerId);
  }

  /** ↑↓ Home End move along the index (roving tabindex); Enter/Space click the entry. */
  keyDown(event) {
    const at = this.entries.indexOf(event.target);
    if (at < 0) return;
    let next = null;
    if (event.key === "ArrowDown") next = Math.min(this.entries.length - 1, at + 1);
    else if (event.key === "ArrowUp") next = Math.max(0, at - 1);
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = this.entries.length - 1;
    else return;
    event.preventDefault();
    event.stopPropagation(); // the list's ↑↓ do not apply here
    for (const entry of this.entries) entry.tabIndex = -1;
    this.entries[next].tabIndex = 0;
    this.entries[next].focus();
  }
}
