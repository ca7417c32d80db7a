/** AzureHound conversion lives in ./azure/, one module per family of record kinds; this is its entry point. */
export { AZURE_CONVERTERS, convertAzure } from './azure/index.js';
