// The one pagination helper: query parameters, envelope schema and envelope builder for every
// list endpoint, so the rules of decisions.md (page >= 0, 1 <= size <= 100, defaults 0 and 20,
// a page past the end is an empty 200) live in one place.
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

export interface PageRequest {
  page: number;
  size: number;
}

export const PaginationSchema = Type.Object({
  page: Type.Integer({ description: 'Current zero-based page index' }),
  size: Type.Integer({ description: 'Items requested per page' }),
  totalElements: Type.Integer({ description: 'Total matching records' }),
  totalPages: Type.Integer({ description: 'Pages at this size' }),
});

export function Paginated<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), pagination: PaginationSchema });
}

export interface Page<T> {
  data: T[];
  pagination: { page: number; size: number; totalElements: number; totalPages: number };
}

export function limitOffset(request: PageRequest): { limit: number; offset: number } {
  return { limit: request.size, offset: request.page * request.size };
}

export function toPage<T>(data: T[], totalElements: number, request: PageRequest): Page<T> {
  return {
    data,
    pagination: {
      page: request.page,
      size: request.size,
      totalElements,
      totalPages: Math.ceil(totalElements / request.size),
    },
  };
}
