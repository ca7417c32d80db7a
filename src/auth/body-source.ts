/** Where the bytes of a signed request's body are: in memory, or spooled to a file (large uploads). */
export type BodySource = { kind: 'buffer'; data: Buffer } | { kind: 'file'; path: string };
