import type { ClientSession } from '../../auth/session.js';
import type { Resolvers } from '../../generated/graphql.js';
import type { GraphQLContext } from '../context.js';

/** Root fields marked @clientOnly always have a client session; this narrows the type for resolvers. */
function clientOf(ctx: GraphQLContext): ClientSession {
  if (ctx.session?.kind !== 'client') throw new Error('client-only field reached without a client session');
  return ctx.session;
}

const refs = (ids: readonly string[], ctx: GraphQLContext) => ctx.loaders.refs.loadMany(ids) as Promise<never>;

export const collectorsResolvers: Resolvers = {
  Query: {
    clients: (_, page, ctx) => ctx.services.clients.list(page),
    client: (_, { id }, ctx) => ctx.services.clients.get(id),
    events: (_, args, ctx) => ctx.services.events.list(args),
    event: (_, { id }, ctx) => ctx.services.events.get(id),
    collectionJob: (_, { id }, ctx) => ctx.services.collectionJobs.get(id),
    clientSelf: (_, __, ctx) => ctx.services.clients.self(clientOf(ctx)),
    availableJobs: (_, __, ctx) => ctx.services.collectionJobs.available(clientOf(ctx)),
    currentJob: (_, __, ctx) => ctx.services.collectionJobs.current(clientOf(ctx)),
    collectorManifest: (_, { type }, ctx) => ctx.services.collectorFiles.manifest(type),
    collectorChecksum: (_, { type, releaseTag }, ctx) => ctx.services.collectorFiles.checksum(type, releaseTag),
    collectorDownload: async (_, { type, releaseTag }, ctx) => {
      const d = await ctx.services.collectorFiles.download(type, releaseTag);
      return { version: d.version, fileName: d.fileName, sha256sum: d.sha256sum, contentBase64: d.content.toString('base64') };
    },
  },
  Mutation: {
    createClient: (_, { input }, ctx) => ctx.services.clients.create(input),
    updateClient: (_, { id, input }, ctx) => ctx.services.clients.update(id, input),
    regenerateClientToken: (_, { id }, ctx) => ctx.services.clients.regenerateToken(id),
    deleteClient: async (_, { id }, ctx) => {
      await ctx.services.clients.delete(id);
      return true;
    },
    createEvent: (_, { input }, ctx) => ctx.services.events.create(input),
    updateEvent: (_, { id, input }, ctx) => ctx.services.events.update(id, input),
    deleteEvent: async (_, { id }, ctx) => {
      await ctx.services.events.delete(id);
      return true;
    },
    createTask: (_, { clientId, input }, ctx) => ctx.services.collectionJobs.createTask(clientId, input),
    cancelCollectionJob: (_, { id }, ctx) => ctx.services.collectionJobs.cancel(id),
    runScheduler: (_, __, ctx) => ctx.services.scheduler.tick(),
    clientCheckin: (_, { input }, ctx) => ctx.services.clients.checkIn(clientOf(ctx), input),
    startJob: (_, { id }, ctx) => ctx.services.collectionJobs.start(clientOf(ctx), id),
    ingestCollection: (_, { file }, ctx) => ctx.services.collectionJobs.ingest(clientOf(ctx), file),
    endJob: (_, args, ctx) => ctx.services.collectionJobs.end(clientOf(ctx), args),
    logClientError: async (_, args, ctx) => {
      await ctx.services.collectionJobs.logError(clientOf(ctx), args);
      return true;
    },
  },
  Client: {
    token: async (c, _, ctx) => c.issuedToken ?? (await ctx.services.clients.token(c.id)) ?? null,
    events: (c, _, ctx) => ctx.loaders.eventsOfClient.load(c.id),
    currentJob: (c, _, ctx) => ctx.loaders.runningJob.load(c.id),
    currentTask: async (c, _, ctx) => {
      const job = await ctx.loaders.runningJob.load(c.id);
      return job && job.eventId === null ? job : null;
    },
    jobs: (c, page, ctx) => ctx.services.collectionJobs.forClient(c.id, page),
  },
  CollectionEvent: {
    ous: (e, _, ctx) => refs(e.ous, ctx),
    domains: (e, _, ctx) => refs(e.domains, ctx),
    ouIds: (e) => e.ous,
    domainIds: (e) => e.domains,
  },
  CollectionJob: {
    ous: (j, _, ctx) => refs(j.ous, ctx),
    domains: (j, _, ctx) => refs(j.domains, ctx),
    ouIds: (j) => j.ous,
    domainIds: (j) => j.domains,
    domainResults: (j, _, ctx) => ctx.loaders.domainResults.load(j.id),
    errors: (j, _, ctx) => ctx.loaders.jobErrors.load(j.id),
  },
  ObjectReference: {
    objectId: (r) => r.objectid,
    distinguishedName: (r) => r.distinguishedname,
  },
  CollectorChecksum: {
    content: (c) => c.content.toString('utf8'),
  },
};
