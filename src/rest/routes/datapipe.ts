import { badRequest } from '../../errors.js';
import { int, single } from '../params.js';
import * as shape from '../reshape/graph.js';
import type { RestRoute } from '../route.js';

const jobId = (context: string, raw: string | undefined) => int(context, 'file_upload_job_id', raw, { min: 0 })!;

/** Analysis (endpoint 14), file upload jobs and the datapipe status, at BloodHound's paths. */
export const datapipeRoutes: RestRoute[] = [
  // 14
  {
    method: 'PUT',
    path: '/api/v2/analysis',
    edition: 'both',
    context: 'analysis',
    operation: 'RequestAnalysis',
    reshape: () => ({ status: 204 }),
  },
  {
    method: 'GET',
    path: '/api/v2/datapipe/status',
    edition: 'both',
    context: 'datapipe',
    operation: 'DatapipeStatus',
    reshape: ({ datapipeStatus }) => ({ body: { data: shape.datapipe(datapipeStatus) } }),
  },
  {
    method: 'POST',
    path: '/api/v2/file-upload/start',
    edition: 'both',
    context: 'file-upload',
    operation: 'StartUpload',
    reshape: ({ startUpload }) => ({ status: 201, body: { data: shape.job(startUpload) } }),
  },
  {
    method: 'POST',
    path: '/api/v2/file-upload/:file_upload_job_id',
    edition: 'both',
    context: 'file-upload',
    operation: 'UploadFile',
    body: 'upload',
    variables: (req) => {
      if (!req.upload) throw badRequest('file-upload', 'The request has no body: send the file as the body.');
      return { jobId: jobId('file-upload', req.params.file_upload_job_id), file: req.upload };
    },
    reshape: () => ({ status: 202 }),
  },
  {
    method: 'POST',
    path: '/api/v2/file-upload/:file_upload_job_id/end',
    edition: 'both',
    context: 'file-upload',
    operation: 'EndUpload',
    variables: (req) => ({ jobId: jobId('file-upload', req.params.file_upload_job_id) }),
    reshape: ({ endUpload }) => ({ body: { data: shape.job(endUpload) } }),
  },
  {
    method: 'GET',
    path: '/api/v2/file-upload',
    edition: 'both',
    context: 'file-upload',
    operation: 'ListUploadJobs',
    variables: (req) => ({
      skip: int('file-upload', 'skip', single('file-upload', 'skip', req.query.skip), { min: 0 }) ?? null,
      limit: int('file-upload', 'limit', single('file-upload', 'limit', req.query.limit), { min: 0 }) ?? null,
    }),
    reshape: ({ uploadJobs }) => ({
      body: { count: uploadJobs.totalCount, skip: uploadJobs.skip, limit: uploadJobs.limit, data: uploadJobs.jobs.map(shape.job) },
    }),
  },
  {
    method: 'GET',
    path: '/api/v2/file-upload/:file_upload_job_id/completed-tasks',
    edition: 'both',
    context: 'file-upload',
    operation: 'UploadJobFiles',
    variables: (req) => ({ id: jobId('file-upload', req.params.file_upload_job_id) }),
    reshape: ({ uploadJob }) => ({
      body: {
        data: uploadJob.files.map((f: Record<string, unknown>) => ({
          id: f.id,
          file_name: f.fileName,
          content_type: f.contentType,
          size_bytes: f.sizeBytes,
          status: f.status,
          errors: f.error ? [f.error] : [],
          result: f.result,
        })),
      },
    }),
  },
];
