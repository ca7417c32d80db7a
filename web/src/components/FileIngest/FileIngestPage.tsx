import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import { Button } from 'react-aria-components';
import { EndUploadDocument, StartUploadDocument, UploadJobsDocument, type UploadJobsQuery } from '../../generated/graphql';
import { gql } from '../../core/api/client';
import { uploadFile } from '../../core/api/upload';
import { formatBytes, isFinished, JOB_STATUS, resultSummary } from '../../core/ingest/status';
import { ErrorMessage } from '../common/ErrorMessage';
import { Loading } from '../common/Loading';

interface Pending {
  file: File;
  progress: number;
  state: 'waiting' | 'uploading' | 'sent' | 'failed';
  error?: string;
}

const JOBS_KEY = ['upload-jobs'] as const;
const ACCEPT = /\.(json|zip)$/i;

/**
 * File ingest: drop or pick SharpHound/AzureHound JSON files or zips, upload them as one job (a progress bar per
 * file), then follow the jobs table, live until every job is complete, with each file's result or error.
 */
export default function FileIngestPage() {
  const client = useQueryClient();
  const [files, setFiles] = useState<Pending[]>([]);
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const jobs = useQuery({
    queryKey: JOBS_KEY,
    queryFn: () => gql(UploadJobsDocument, { limit: 20 }),
    refetchInterval: (q) => (q.state.data?.uploadJobs.jobs.some((j) => !isFinished(j.status)) || busy ? 1000 : 10_000),
  });

  const add = (list: FileList | null) => {
    if (!list) return;
    const chosen = [...list].filter((f) => ACCEPT.test(f.name) || f.type === 'application/json' || f.type === 'application/zip');
    const refused = [...list].filter((f) => !chosen.includes(f));
    setError(
      refused.length
        ? new Error(`Only JSON files and zip archives are ingested; left out: ${refused.map((f) => f.name).join(', ')}.`)
        : null,
    );
    setFiles((old) => [
      ...old.filter((p) => p.state !== 'sent'),
      ...chosen.map((file) => ({ file, progress: 0, state: 'waiting' as const })),
    ]);
  };
  const set = (i: number, patch: Partial<Pending>) => setFiles((old) => old.map((p, j) => (j === i ? { ...p, ...patch } : p)));

  async function upload() {
    setBusy(true);
    setError(null);
    try {
      const { startUpload } = await gql(StartUploadDocument);
      await client.invalidateQueries({ queryKey: JOBS_KEY });
      for (let i = 0; i < files.length; i++) {
        if (files[i]!.state === 'sent') continue;
        set(i, { state: 'uploading', progress: 0, error: undefined });
        try {
          await uploadFile(startUpload.id, files[i]!.file, (progress) => set(i, { progress }));
          set(i, { state: 'sent', progress: 1 });
        } catch (err) {
          set(i, { state: 'failed', error: err instanceof Error ? err.message : String(err) });
        }
      }
      await gql(EndUploadDocument, { jobId: startUpload.id });
      setOpen(startUpload.id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      await client.invalidateQueries({ queryKey: JOBS_KEY });
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    add(e.dataTransfer.files);
  };
  const waiting = files.filter((f) => f.state === 'waiting' || f.state === 'failed').length;
  return (
    <div className="page">
      <h1 style={{ fontSize: 20, marginTop: 0 }}>File ingest</h1>
      <div
        className="dropzone"
        data-over={over}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>Drop SharpHound or AzureHound JSON files, or zip archives of them, here, or</p>
        <button type="button" onClick={() => input.current?.click()}>
          Choose files
        </button>
        {/* The picker itself stays out of the way (display: none); the button above opens it. */}
        <input
          ref={input}
          type="file"
          aria-label="Upload files"
          multiple
          accept=".json,.zip,application/json,application/zip"
          hidden
          onChange={(e) => {
            add(e.target.files);
            e.target.value = '';
          }}
        />
      </div>
      {files.length > 0 && (
        <ul className="file-list" aria-label="Files to upload">
          {files.map((p, i) => (
            <li key={`${p.file.name}-${i}`}>
              <span>
                {p.file.name} <span className="muted">({formatBytes(p.file.size)})</span>
                {p.error && (
                  <span className="error" style={{ display: 'block' }}>
                    {p.error}
                  </span>
                )}
              </span>
              <progress max={1} value={p.progress} aria-label={`${p.file.name} upload progress`} />
              <span className="muted">
                {p.state === 'sent'
                  ? 'Uploaded'
                  : p.state === 'uploading'
                    ? `${Math.round(p.progress * 100)} %`
                    : p.state === 'failed'
                      ? 'Failed'
                      : 'Waiting'}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="cypher-actions">
        <Button className="primary" onPress={() => void upload()} isDisabled={busy || waiting === 0}>
          Upload
        </Button>
        {files.length > 0 && !busy && <Button onPress={() => setFiles([])}>Clear list</Button>}
      </div>
      <ErrorMessage error={error} />

      <h2 style={{ fontSize: 16 }}>Ingest jobs</h2>
      {jobs.isPending && <Loading label="Loading jobs" />}
      <ErrorMessage error={jobs.error} />
      {jobs.data && (
        <p className="muted">
          Data pipeline: {jobs.data.datapipeStatus.status.toLowerCase()}
          {jobs.data.datapipeStatus.lastCompleteAnalysisAt &&
            ` · last analysis ${new Date(jobs.data.datapipeStatus.lastCompleteAnalysisAt).toLocaleString()}`}
        </p>
      )}
      <table className="data" aria-label="Ingest jobs">
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Status</th>
            <th scope="col">Files</th>
            <th scope="col">Started</th>
            <th scope="col">Ended</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {jobs.data?.uploadJobs.jobs.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                No upload yet.
              </td>
            </tr>
          )}
          {jobs.data?.uploadJobs.jobs.map((j) => (
            <JobRow key={j.id} job={j} open={open === j.id} onToggle={() => setOpen(open === j.id ? null : j.id)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

type Job = UploadJobsQuery['uploadJobs']['jobs'][number];

function JobRow({ job, open, onToggle }: { job: Job; open: boolean; onToggle(): void }) {
  const status = JOB_STATUS[job.status];
  return (
    <>
      <tr>
        <td>{job.id}</td>
        <td>
          <span className={`status-chip ${status.split(' ')[0]}`}>{status}</span>
          {job.statusMessage && <div className="muted">{job.statusMessage}</div>}
        </td>
        <td>
          {job.totalFiles}
          {job.failedFiles > 0 && (
            <span className="error" style={{ padding: '0 4px', marginLeft: 6 }}>
              {job.failedFiles} failed
            </span>
          )}
        </td>
        <td>{new Date(job.startTime).toLocaleString()}</td>
        <td>{job.endTime ? new Date(job.endTime).toLocaleString() : '—'}</td>
        <td>
          <button type="button" className="link" aria-expanded={open} onClick={onToggle}>
            {open ? 'Hide files' : 'Show files'}
          </button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={6}>
            <table className="data" aria-label={`Files of job ${job.id}`}>
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Size</th>
                  <th scope="col">Status</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {job.files.map((f) => (
                  <tr key={f.id}>
                    <td>{f.fileName}</td>
                    <td>{formatBytes(f.sizeBytes)}</td>
                    <td>{f.status === 'INGESTED' ? 'Ingested' : f.status === 'FAILED' ? 'Failed' : 'Pending'}</td>
                    <td>
                      {f.error ? (
                        <span className="error" style={{ display: 'block' }}>
                          {f.error}
                        </span>
                      ) : (
                        resultSummary(f.result)
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </td>
        </tr>
      )}
    </>
  );
}
