/**
 * Jest runs the suite as CommonJS and Node 20's jest cannot require an ES module. Packages published only as ES
 * modules (openid-client and oidc-provider with their dependencies) are compiled to CommonJS here; every other file
 * passes through untouched.
 */
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('esbuild');

const typeOf = new Map();
/** The "type" of the package.json nearest above a file, cached per directory. */
function packageType(dir) {
  if (typeOf.has(dir)) return typeOf.get(dir);
  let type = 'commonjs';
  const file = path.join(dir, 'package.json');
  if (fs.existsSync(file)) {
    try {
      type = JSON.parse(fs.readFileSync(file, 'utf8')).type ?? 'commonjs';
    } catch {
      type = 'commonjs';
    }
  } else if (path.dirname(dir) !== dir) type = packageType(path.dirname(dir));
  typeOf.set(dir, type);
  return type;
}

module.exports = {
  process(source, filename) {
    const esm = filename.endsWith('.mjs') || (filename.endsWith('.js') && packageType(path.dirname(filename)) === 'module');
    if (!esm) return { code: source };
    const out = transformSync(source, { loader: 'js', format: 'cjs', target: 'node20', sourcefile: filename, sourcemap: 'inline' });
    return { code: out.code };
  },
};
