// The HTTP side of pagination: query parameters and envelope schema for every list endpoint, so the
// rules of docs/decisions.md (page >= 0, 1 <= size <= 100, defaults 0 and 20, a page past the end is
// an empty 200) live in one place. Services build the envelope with src/shared/pagination.ts.
import { Type, type TSchema } from 'typebox';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export const PageQuery = {
  page: Type.Integer({ minimum: 0, maximum: 9_000_000_000_000, default: 0, description: 'Zero-based page index' }),
  size: Type.Integer({
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: `Items per page, at most ${MAX_PAGE_SIZE}`,
  }),
};

export const PaginationSchema = Type.Object({
  page: Type.Integer({ description: 'Current zero-based page index' }),
  size: Type.Integer({ description: 'Items requested per page' }),
  totalElements: Type.Integer({ description: 'Total matching records' }),
  totalPages: Type.Integer({ description: 'Pages at this size' }),
});

export function Paginated<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), pagination: PaginationSchema });
}
