import type { RestRoute } from '../route.js';
import { accountRoutes } from './accounts.js';
import { auditRoutes } from './audit.js';
import { aliasRoutes, jobListRoutes, roleRoutes } from './aliases.js';
import { adminRoutes } from './admin.js';
import { ssoRoutes } from './sso.js';
import { collectorRoutes } from './collectors.js';
import { cypherRoutes } from './cypher.js';
import { datapipeRoutes } from './datapipe.js';
import { entityRoutes } from './entities.js';
import { graphRoutes } from './graph.js';
import { graphDataRoutes } from './graph-data.js';
import { identityRoutes } from './identity.js';
import { savedQueryRoutes } from './saved-queries.js';
import { searchRoutes } from './search.js';
import { selectorPreviewRoutes } from './selector-preview.js';
import { tagRoutes } from './tag-routes.js';
import { zoneHistoryRoutes } from './zone-history.js';
import { graphSchemaRoutes } from './graph-schema.js';

const DECLARED: RestRoute[] = [
  ...identityRoutes,
  ...graphRoutes,
  ...graphDataRoutes,
  ...datapipeRoutes,
  ...collectorRoutes,
  ...adminRoutes,
  ...ssoRoutes,
  ...accountRoutes,
  ...auditRoutes,
  ...savedQueryRoutes,
  ...selectorPreviewRoutes,
];

/** Every REST route, grouped by area; the order within an area follows the API document. */
export const ROUTES: RestRoute[] = [
  ...DECLARED,
  ...entityRoutes(DECLARED),
  ...searchRoutes,
  ...roleRoutes,
  ...jobListRoutes,
  ...tagRoutes,
  ...zoneHistoryRoutes,
  ...graphSchemaRoutes,
  ...cypherRoutes,
  ...aliasRoutes(DECLARED),
];
