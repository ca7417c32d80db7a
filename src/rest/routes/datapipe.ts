import { z } from 'zod';
import { badRequest } from '../../errors.js';
import { intText, query } from '../params.js';
import * as shape from '../reshape/graph.js';
import { data, route } from '../route.js';

const jobParams = z.object({ file_upload_job_id: intText(0) });

/** Analysis (endpoint 14), file upload jobs and the datapipe status, at BloodHound's paths. */
export const datapipeRoutes = [
  // 14
  route({ method: 'PUT', path: '/api/v2/analysis', context: 'analysis', operation: 'RequestAnalysis', reshape: () => ({ status: 204 }) }),
  route({
    method: 'GET',
    path: '/api/v2/datapipe/status',
    context: 'datapipe',
    operation: 'DatapipeStatus',
    reshape: ({ datapipeStatus }) => data(shape.datapipe(datapipeStatus)),
  }),
  route({
    method: 'POST',
    path: '/api/v2/file-upload/start',
    context: 'file-upload',
    operation: 'StartUpload',
    reshape: ({ startUpload }) => ({ status: 201, body: { data: shape.job(startUpload) } }),
  }),
  route({
    method: 'POST',
    path: '/api/v2/file-upload/:file_upload_job_id',
    context: 'file-upload',
    operation: 'UploadFile',
    body: 'upload',
    input: { params: jobParams },
    variables: ({ params }, req) => {
      if (!req.upload) throw badRequest('file-upload', 'The request has no body: send the file as the body.');
      return { jobId: params.file_upload_job_id, file: req.upload };
    },
    reshape: () => ({ status: 202 }),
  }),
  route({
    method: 'POST',
    path: '/api/v2/file-upload/:file_upload_job_id/end',
    context: 'file-upload',
    operation: 'EndUpload',
    input: { params: jobParams },
    variables: ({ params }) => ({ jobId: params.file_upload_job_id }),
    reshape: ({ endUpload }) => data(shape.job(endUpload)),
  }),
  route({
    method: 'GET',
    path: '/api/v2/file-upload',
    context: 'file-upload',
    operation: 'ListUploadJobs',
    input: { query: z.object({ skip: query.int(), limit: query.int() }) },
    variables: ({ query }) => query,
    reshape: ({ uploadJobs: l }) => ({ body: { count: l.totalCount, skip: l.skip, limit: l.limit, data: l.jobs.map(shape.job) } }),
  }),
  route({
    method: 'GET',
    path: '/api/v2/file-upload/:file_upload_job_id/completed-tasks',
    context: 'file-upload',
    operation: 'UploadJobFiles',
    input: { params: jobParams },
    variables: ({ params }) => ({ id: params.file_upload_job_id }),
    reshape: ({ uploadJob }) => data(uploadJob.files.map(shape.file)),
  }),
];
