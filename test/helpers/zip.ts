import yazl from 'yazl';

/** Builds a zip archive in memory from [name, contents] pairs. */
export function zip(entries: [string, string | Buffer][]): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [name, data] of entries) z.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name);
  z.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    z.outputStream.on('data', (d: Buffer) => parts.push(d));
    z.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    z.outputStream.on('error', reject);
  });
}
