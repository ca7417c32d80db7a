/** Status tables of the data pipeline (BloodHound's numbers), GraphQL enums through src/services/common/enums.ts. */

/** BloodHound's job status numbers. */
export const JOB_STATUS = {
  invalid: -1,
  ready: 0,
  running: 1,
  complete: 2,
  canceled: 3,
  timedOut: 4,
  failed: 5,
  ingesting: 6,
  analyzing: 7,
  partiallyComplete: 8,
} as const;

export type JobStatusValue = (typeof JOB_STATUS)[keyof typeof JOB_STATUS];

/** The statuses a collector may end its job with (POST /api/v2/jobs/end): GraphQL's EndJobStatus. */
export const END_JOB_STATUS = {
  complete: JOB_STATUS.complete,
  canceled: JOB_STATUS.canceled,
  timedOut: JOB_STATUS.timedOut,
  failed: JOB_STATUS.failed,
  partiallyComplete: JOB_STATUS.partiallyComplete,
} as const;

export type EndJobStatusValue = (typeof END_JOB_STATUS)[keyof typeof END_JOB_STATUS];

/** An uploaded file's status: BloodHound's job numbers for pending, ingested and failed. */
export const FILE_STATUS = { pending: JOB_STATUS.ready, ingested: JOB_STATUS.complete, failed: JOB_STATUS.failed } as const;

export type FileStatusValue = (typeof FILE_STATUS)[keyof typeof FILE_STATUS];

/** What the data pipeline is doing (datapipe_state.status). */
export const DATAPIPE_STATE = { idle: 'idle', ingesting: 'ingesting', analyzing: 'analyzing' } as const;
export type DatapipeStateValue = (typeof DATAPIPE_STATE)[keyof typeof DATAPIPE_STATE];
