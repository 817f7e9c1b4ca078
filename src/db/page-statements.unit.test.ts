import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { flagsKey, PageStatements, placeholderOf } from './page-statements.ts';

const FLAGS = ['a', 'b', 'c'] as const;
type Shape = Record<(typeof FLAGS)[number], boolean>;
interface Values {
  companyId: string;
  a: string;
  b: string;
}
const value = placeholderOf<Values>();

function statements() {
  const built: string[] = [];
  const keyOf = flagsKey(FLAGS);
  const page = new PageStatements<Shape, Values>(keyOf, (shape) => {
    built.push(keyOf(shape));
    if (shape.c) throw new Error('no statement for c');
    return sql`select 1 where company_id = ${value('companyId')}${shape.a ? sql` and a = ${value('a')}` : sql``}${shape.b ? sql` and b = ${value('b')}` : sql``}`;
  });
  return { page, built };
}

describe('PageStatements', () => {
  it('builds a shape on its first use only, once, and binds its values by name', () => {
    const { page, built } = statements();
    expect(built).toEqual([]);
    const first = page.bind({ a: true, b: false, c: false }, { companyId: 'x', a: 'one', b: 'unused' });
    expect(first).toEqual({ text: 'select 1 where company_id = $1 and a = $2', values: ['x', 'one'] });
    expect(page.bind({ a: true, b: false, c: false }, { companyId: 'y', a: 'two' })).toEqual({ text: first.text, values: ['y', 'two'] });
    expect(page.bind({ a: false, b: true, c: false }, { companyId: 'z', b: 'three' })).toEqual({ text: 'select 1 where company_id = $1 and b = $2', values: ['z', 'three'] });
    expect(built).toEqual(['100', '010']);
  });

  it('keeps a value written into the text in its place, and refuses a placeholder left unbound', () => {
    const page = new PageStatements<Shape, Values>(flagsKey(FLAGS), () => sql`select ${'fixed'} where company_id = ${value('companyId')} and a = ${value('a')}`);
    expect(page.bind({ a: false, b: false, c: false }, { companyId: 'x', a: 'one' })).toEqual({
      text: 'select $1 where company_id = $2 and a = $3',
      values: ['fixed', 'x', 'one'],
    });
    // Bound as undefined when given as undefined (an absent filter); missing altogether, a mistake.
    expect(page.bind({ a: false, b: false, c: false }, { companyId: 'x', a: undefined }).values).toEqual(['fixed', 'x', undefined]);
    expect(() => page.bind({ a: false, b: false, c: false }, { companyId: 'x' })).toThrow('No value for placeholder "a"');
  });

  it('answers a shape the page never runs with the builder\'s error, and keeps nothing for it', () => {
    const { page, built } = statements();
    const shape = { a: false, b: false, c: true };
    expect(() => page.bind(shape, { companyId: 'x' })).toThrow('no statement for c');
    expect(() => page.bind(shape, { companyId: 'x' })).toThrow('no statement for c');
    expect(built).toEqual(['001', '001']);
  });
});
