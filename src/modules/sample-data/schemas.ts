import { Type } from 'typebox';

export const SampleData = Type.Object(
  {
    offered: Type.Boolean({
      description: 'Whether this server fills companies with sample data (SAMPLE_DATA; by default only in development mode on the embedded database)',
    }),
    present: Type.Boolean({ description: 'Whether the company has sample data now' }),
    filledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When it was added; null without sample data' }),
    jobListings: Type.Integer({ minimum: 0, description: 'Sample job listings made (some may have been deleted since)' }),
    candidates: Type.Integer({ minimum: 0, description: 'Sample candidates made' }),
  },
  { $id: 'SampleData', description: "The company's sample data: a realistic pipeline to explore the service with, removable in one step." },
);

export const sampleDataSchemas = [SampleData];
