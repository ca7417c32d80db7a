/**
 * A signed upload's digest, taken while its body streamed to disk (the upload gate and readUpload), so the file is
 * never read back to check it. It holds for the request it was keyed with only.
 */
export interface StreamedDigest {
  tokenId: string;
  method: string;
  target: string;
  requestDate: string;
  /** The final HMAC of the chain, already found equal to the Signature header. */
  digest: Buffer;
}

/** Where the bytes of a signed request's body are: in memory, or spooled to a file (large uploads). */
export type BodySource = { kind: 'buffer'; data: Buffer } | { kind: 'file'; path: string; signed?: StreamedDigest };
