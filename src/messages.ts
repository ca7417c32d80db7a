/** Human-readable texts shared by more than one module. Messages never contain SQL, stack traces or secrets. */
export const MSG = {
  internal: 'The request could not be handled due to an unexpected error.',
  internalDb: 'The request could not be handled due to an unexpected database error.',
  notAuthenticated: 'Unauthorized: this resource requires authentication.',
  forbidden: 'You do not have permission to access this resource.',
  routeNotFound: 'The requested resource could not be found.',
  rateLimited: 'Too many requests. Please try again later.',
  timedOut: 'The request took longer than its deadline (Prefer: wait) and was cancelled.',
  badJson: 'The JSON payload could not be unmarshalled.',
  bodyTooLarge: 'The request body is larger than the server accepts.',
  notEnterprise: 'This endpoint is only available in the enterprise edition.',
  clientOnly: 'This endpoint is only available to collector clients.',
  /** A JSON file that is neither a collector file nor OpenGraph. */
  unknownFileFormat:
    'the file is neither a collector file ({"meta": {"type": …, "version": …}, "data": […]}, as SharpHound and AzureHound write) ' +
    'nor an OpenGraph file ({"metadata": {"source_kind": …} (optional), "graph": {"nodes": […], "edges": […]}})',
} as const;
