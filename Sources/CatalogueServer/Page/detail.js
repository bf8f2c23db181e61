// The detail view: every field of one record, in a modal <dialog> (a sheet on a phone).
// Esc closes it (the dialog's own cancel), and so does Done; focus goes back where it was.

import { api } from "./api.js";
import { detailFields } from "./rows.js";

export class DetailView {
  /** @param {(open: boolean) => void} onChange  told when the view opens or closes */
  constructor(onChange) {
    this.dialog = document.getElementById("detail");
    this.kind = document.getElementById("detail-kind");
    this.title = document.getElementById("detail-title");
    this.subtitle = document.getElementById("detail-subtitle");
    this.fields = document.getElementById("detail-fields");
    this.onChange = onChange;
    this.request = null;
    document.getElementById("detail-close").addEventListener("click", () => this.close());
    this.dialog.addEventListener("close", () => {
      this.request?.abort();
      this.onChange(false);
    });
    // A click on the backdrop (outside the sheet) closes it too.
    this.dialog.addEventListener("click", (event) => {
      if (event.target === this.dialog) this.close();
    });
  }

  get isOpen() {
    return this.dialog.open;
  }

  /**
   * Shows a record at once from what the list holds, then refreshes it from
   * GET /api/{entity}/{key} (the record may have changed since its batch loaded).
   */
  open(entity, key, item) {
    this.show(entity, item);
    if (!this.dialog.open) this.dialog.showModal();
    this.onChange(true);
    this.request?.abort();
    const request = (this.request = new AbortController());
    api
      .record(entity, key, request.signal)
      .then((fresh) => {
        if (this.request === request && this.dialog.open) this.show(entity, fresh);
      })
      .catch(() => {
        // Keep what the list showed (the record may just have been deleted).
      });
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  show(entity, item) {
    const content = detailFields(entity, item);
    this.dialog.dataset.entity = entity;
    this.kind.textContent = entity === "countries" ? "Country" : "Product";
    this.title.textContent = content.title;
    this.subtitle.textContent = content.subtitle;
    this.subtitle.hidden = content.subtitle === "";
    const rows = [];
    for (const [label, value] of content.fields) {
      if (value === null || value === undefined || value === "") continue;
      const row = document.createElement("div");
      const term = document.createElement("dt");
      term.textContent = label;
      const description = document.createElement("dd");
      description.textContent = value;
      row.append(term, description);
      rows.push(row);
    }
    this.fields.replaceChildren(...rows);
  }
}
