import type { Resolvers } from '../../generated/graphql.js';
import { Upload } from '../scalars.js';

export const datapipeResolvers: Resolvers = {
  Upload,
  Query: {
    uploadJobs: (_, page, ctx) => ctx.services.datapipe.listJobs(ctx.session!, page),
    uploadJob: (_, { id }, ctx) => ctx.services.datapipe.job(ctx.session!, id),
    datapipeStatus: (_, __, ctx) => ctx.services.datapipe.status(),
  },
  Mutation: {
    startUpload: (_, __, ctx) => ctx.services.datapipe.startUpload(ctx.session!),
    uploadFile: (_, { jobId, file }, ctx) => ctx.services.datapipe.uploadFile(ctx.session!, jobId, file),
    endUpload: (_, { jobId }, ctx) => ctx.services.datapipe.endUpload(ctx.session!, jobId),
    cancelUpload: (_, { jobId }, ctx) => ctx.services.datapipe.cancelJob(ctx.session!, jobId),
    requestAnalysis: (_, __, ctx) => ctx.services.datapipe.requestAnalysis(ctx.session!),
  },
  IngestJob: {
    files: (job, _, ctx) => ctx.services.datapipe.files(ctx.session!, job.id),
  },
  IngestFile: {
    fileName: (f) => f.originalName,
  },
};
