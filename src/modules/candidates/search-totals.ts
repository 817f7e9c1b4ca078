// Kept search totals (docs/decisions.md, "Candidate search: file words and kept search totals"):
// a search's total as counted with the company's search generation at the time. The page
// statement counts again only when the generation it reads differs, so every other page of a
// search, and the same search again, reads the total instead of visiting every match's row. Exact:
// the generation is the sum of the kept search changes (migration 0039), and two snapshots that
// read the same sum see the same candidates' words. Per process, built once in src/deps.ts.

export interface KnownTotal {
  generation: number;
  total: number;
}

/** How many searches a process keeps totals for (the least recently used go first). */
const KEPT_SEARCHES = 2_000;

export class SearchTotals {
  readonly #totals = new Map<string, KnownTotal>();

  get(companyId: string, q: string): KnownTotal | undefined {
    const key = `${companyId}\n${q}`;
    const known = this.#totals.get(key);
    if (known) {
      // Most recently used last: a Map keeps insertion order.
      this.#totals.delete(key);
      this.#totals.set(key, known);
    }
    return known;
  }

  set(companyId: string, q: string, known: KnownTotal): void {
    const key = `${companyId}\n${q}`;
    this.#totals.delete(key);
    this.#totals.set(key, known);
    if (this.#totals.size > KEPT_SEARCHES) this.#totals.delete(this.#totals.keys().next().value!);
  }
}

declare module '../../shared/context.ts' {
  interface ServiceContext {
    /** Searches' totals with the generation they were counted at (built once in src/deps.ts); none: every search counts. */
    candidateSearchTotals?: SearchTotals | undefined;
  }
}
