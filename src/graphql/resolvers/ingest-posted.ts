import type { Resolvers } from '../../generated/graphql.js';
import { PERMISSIONS } from '../../auth/session.js';
import { forbidden, notFound } from '../../errors.js';

/** POST /api/v2/ingest as both of BloodHound's callers send it: a collector's batch, or a user's JSON body. */
export const ingestPostedResolvers: Resolvers = {
  Mutation: {
    ingestPosted: async (_, { file }, ctx) => {
      const s = ctx.session!;
      if (s.kind === 'client') {
        // Collector jobs are an enterprise feature, as the client-only ingest field is.
        if (ctx.edition !== 'enterprise') throw notFound('ingest', 'Collector ingest is an enterprise feature.');
        await ctx.services.collectionJobs.ingest(s, file);
        return true;
      }
      if (!s.permissions.has(PERMISSIONS.GraphDBIngest)) throw forbidden('ingest', 'Posting data to ingest requires graphdb/Ingest.');
      const job = await ctx.services.datapipe.startUpload(s);
      try {
        await ctx.services.datapipe.uploadFile(s, job.id, file);
      } catch (err) {
        await ctx.services.datapipe.discardUpload(s, job.id, 'the posted data was refused');
        throw err;
      }
      await ctx.services.datapipe.endUpload(s, job.id);
      return true;
    },
  },
};
