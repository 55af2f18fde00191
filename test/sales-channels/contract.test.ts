// The contract suite for the sales-channels module's operations (test/helpers/contract/suite.ts); probes in ./probes.ts.
import { contractSuite } from "../helpers/contract/suite";
import { probes } from "./probes";

contractSuite("sales-channels", probes);
