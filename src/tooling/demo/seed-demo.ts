// First start on an empty embedded database: a demo company and a key with every scope, so a
// newcomer can make a real call at once, and a hiring pipeline (listings, candidates,
// applications in several stages) for those calls to return. Runs only when no company exists yet.
import type { ServiceContext } from '../../shared/context.ts';
import { createApiKey, type CreatedApiKey } from '../../modules/api-keys/service.ts';
import { ALL_SCOPES } from '../../modules/api-keys/scopes.ts';
import { createCompany, hasCompanies, type CompanyView } from '../../modules/companies/service.ts';
import { tellPipelineStory, type DemoPipeline } from '../../modules/sample-data/service.ts';

export interface DemoSeed {
  company: CompanyView;
  apiKey: CreatedApiKey;
  pipeline: DemoPipeline;
}

export async function seedDemoIfEmpty(ctx: ServiceContext): Promise<DemoSeed | null> {
  // One transaction: a start stopped half-way must not leave a demo company without its key
  // (the next start would see a company and never print a key).
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    if (await hasCompanies(txCtx)) return null;
    const company = await createCompany(txCtx, { name: 'Demo Company' });
    const apiKey = await createApiKey(txCtx, { companyId: company.id, label: 'Demo key (all scopes)', scopes: ALL_SCOPES });
    // The sample data's story, its notes written by the demo key.
    const { listings, candidates, applications } = await tellPipelineStory(txCtx, company.id, {
      noteAuthor: { companyId: company.id, scopes: ALL_SCOPES, apiKeyId: apiKey.id },
    });
    return { company, apiKey, pipeline: { listings, candidates, applications } };
  });
}
