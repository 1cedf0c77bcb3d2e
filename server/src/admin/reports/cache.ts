import type { Report } from '@tribuna/contracts/api/admin/reports';

/** Periods kept per instance: the screen's seven choices for a few time zones and custom ranges. */
const MAX_ENTRIES = 64;

/**
 * Answers of GET /api/admin/reports by aggregates version and resolved range. The figures change
 * only when the worker writes the aggregates, which raises `report_version` in the same
 * transaction, so an entry is valid exactly as long as the version it was read under. Readers of
 * the same missing entry share one read (single flight); the oldest entries go first.
 */
export class ReportCache {
  readonly #entries = new Map<string, Promise<Report>>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The cached answer for `key`, or `load()`'s, remembered unless it fails. */
  get(version: number, key: string, load: () => Promise<Report>): Promise<Report> {
    const id = `${version}|${key}`;
    const cached = this.#entries.get(id);
    if (cached) {
      // Refresh its place: most recently used last.
      this.#entries.delete(id);
      this.#entries.set(id, cached);
      return cached;
    }
    const loading = load();
    this.#entries.set(id, loading);
    loading.catch(() => {
      if (this.#entries.get(id) === loading) this.#entries.delete(id);
    });
    // Entries of older versions can never be asked for again; drop them, then the least used.
    for (const existing of this.#entries.keys()) {
      if (!existing.startsWith(`${version}|`)) this.#entries.delete(existing);
    }
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
    return loading;
  }
}
