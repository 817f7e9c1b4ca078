import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';

export const sectors = pgTable('sectors', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  parentId: uuid('parent_id'),
  sortOrder: integer('sort_order').notNull(),
});

export const tags = pgTable('tags', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  tagType: text('tag_type').notNull(),
});
