// The titles of the job listings a list of applications names. The API embeds only a listing's id
// in an application summary; each title is fetched once (GET /job-listings/{id}) and kept for the
// page's life, so paging through the same listings asks nothing again.
import { useEffect, useState } from 'react';
import { api, call } from '../../api';

export type Titles = ReadonlyMap<string, string>;

export function useListingTitles(ids: readonly string[]): Titles {
  const [titles, setTitles] = useState<Map<string, string>>(() => new Map());
  const wanted = [...new Set(ids)].filter((id) => !titles.has(id)).sort();
  const key = wanted.join(',');
  useEffect(() => {
    if (!key) return;
    let live = true;
    void Promise.all(
      key.split(',').map(async (id): Promise<[string, string]> => {
        try {
          const listing = await call(api.GET('/public/v1/job-listings/{id}', { params: { path: { id } } }));
          return [id, listing.position.value];
        } catch {
          // Deleted since: the application keeps its listing's id only.
          return [id, 'A deleted listing'];
        }
      }),
    ).then((found) => {
      if (live) setTitles((before) => new Map([...before, ...found]));
    });
    return () => {
      live = false;
    };
  }, [key]);
  return titles;
}
