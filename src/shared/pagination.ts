// Pages as services answer them: a page request in, the items of that page and the totals out.
// The HTTP side (query parameters and the envelope schema) is src/http/pagination.ts.

export interface PageRequest {
  page: number;
  size: number;
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
