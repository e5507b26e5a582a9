import { createDocketApp } from './docketApp.js';

/*
 * The CDK app (cdk.json "app"). Offline by construction: account and region come from context or
 * the CLI's CDK_DEFAULT_* variables, and nothing is looked up.
 */
createDocketApp().app.synth();
