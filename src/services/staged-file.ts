/**
 * An uploaded body spooled to disk by the HTTP layer, handed to GraphQL as the value of an `Upload` variable.
 * Only code in this process can create one (JSON variables never are instances), so a GraphQL client cannot
 * name a path on the server.
 */
export class StagedFile {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly contentType: string,
    readonly name: string,
  ) {}
}

/** What an `Upload` variable holds. */
export type UploadValue = StagedFile | File;
