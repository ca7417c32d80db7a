import { z } from 'zod';
import { badRequest } from '../../errors.js';
import { intText, query } from '../params.js';
import * as shape from '../reshape/graph.js';
import { accepted, data, noContent, route } from '../route.js';

// The upload job's id under the operations' name for it, so most routes need no `variables`.
const uploadJob = z.object({ file_upload_job_id: intText(0) }).transform((p) => ({ jobId: p.file_upload_job_id }));

/** Analysis (endpoint 14), file upload jobs and the datapipe status, at BloodHound's paths. */
export const datapipeRoutes = [
  // 14
  route('PUT', '/api/v2/analysis', 'analysis', 'RequestAnalysis', { reshape: noContent }),
  route('GET', '/api/v2/datapipe/status', 'datapipe', 'DatapipeStatus', {
    reshape: ({ datapipeStatus }) => data(shape.datapipe(datapipeStatus)),
  }),
  route('POST', '/api/v2/file-upload/start', 'file-upload', 'StartUpload', {
    reshape: ({ startUpload }) => ({ status: 201, body: { data: shape.job(startUpload) } }),
  }),
  route('POST', '/api/v2/file-upload/:file_upload_job_id', 'file-upload', 'UploadFile', {
    body: 'upload',
    input: { params: uploadJob },
    variables: ({ params }, req) => {
      if (!req.upload) throw badRequest('file-upload', 'The request has no body: send the file as the body.');
      return { jobId: params.jobId, file: req.upload };
    },
    reshape: accepted,
  }),
  route('POST', '/api/v2/file-upload/:file_upload_job_id/end', 'file-upload', 'EndUpload', {
    input: { params: uploadJob },
    reshape: ({ endUpload }) => data(shape.job(endUpload)),
  }),
  // Ours (BloodHound has no cancel of an upload job): stops its ingest at once.
  route('PUT', '/api/v2/file-upload/:file_upload_job_id/cancel', 'file-upload', 'CancelUpload', {
    input: { params: uploadJob },
    reshape: ({ cancelUpload }) => data(shape.job(cancelUpload)),
  }),
  route('GET', '/api/v2/file-upload', 'file-upload', 'ListUploadJobs', {
    input: { query: z.object({ skip: query.int(), limit: query.int() }) },
    reshape: ({ uploadJobs: l }) => ({ body: { count: l.totalCount, skip: l.skip, limit: l.limit, data: l.jobs.map(shape.job) } }),
  }),
  route('GET', '/api/v2/file-upload/:file_upload_job_id/completed-tasks', 'file-upload', 'UploadJobFiles', {
    input: { params: uploadJob },
    reshape: ({ uploadJob }) => data(uploadJob.files.map(shape.file)),
  }),
];
