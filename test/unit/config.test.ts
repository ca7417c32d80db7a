import { ConfigError, loadConfig } from '../../src/config';

describe('configuration', () => {
  it('starts with the defaults', () => {
    expect(loadConfig({})).toMatchObject({ edition: 'enterprise', rateLimitRps: 55 });
  });

  it.each([
    [{ GRAPH_DRIVER: 'neo4j' }, /GRAPH_DRIVER: only "pg" exists/],
    [{ NEO4J_URI: 'bolt://localhost:7687' }, /NEO4J_URI: no Neo4j graph store is built yet/],
    [{ REDIS_URL: 'redis://localhost' }, /REDIS_URL: rate-limit counters are kept per process/],
  ])('refuses %j, a setting that would do nothing', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads TRUST_PROXY as hops or proxy addresses, off by default, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8']);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY: must be a number of proxy hops/);
  });

  it('reads ANALYSIS_MAX_HEAP_MB as a cap in MiB, unset when empty, and refuses a cap that would stop every run', () => {
    expect(loadConfig({}).analysisMaxHeapMb).toBeUndefined();
    expect(loadConfig({ ANALYSIS_MAX_HEAP_MB: '' }).analysisMaxHeapMb).toBeUndefined();
    expect(loadConfig({ ANALYSIS_MAX_HEAP_MB: '12288' }).analysisMaxHeapMb).toBe(12288);
    for (const bad of ['0', '-1', '1.5', 'lots']) expect(() => loadConfig({ ANALYSIS_MAX_HEAP_MB: bad })).toThrow(/ANALYSIS_MAX_HEAP_MB/);
  });
});
