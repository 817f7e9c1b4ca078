// What a copy of every row into another database of this schema (`export-to-postgres`) must know
// about the kept counts: the target's triggers (migration 0015) count each copied row as it is
// inserted there, exactly as they counted it on the source. Copying the source's kept counts on
// top of that counted every row twice (every total and the overview doubled).

/** Delta tables the triggers fill from the rows they count: not copied, the target's triggers rebuild them. */
export const COUNTED_ON_INSERT: readonly string[] = ['company_counts', 'application_daily_counts', 'listing_stage_counts', 'application_source_counts'];

/**
 * Written by the triggers too, but holding what the counted row does not: when the application
 * moved into HIRED (the insert trigger can only guess its updated_at). The source's rows replace
 * what the triggers wrote, after every counted row is in.
 */
export const REPLACED_AFTER_COPY: readonly string[] = ['application_hires'];
