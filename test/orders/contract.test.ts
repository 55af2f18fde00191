// The contract suite for the orders module's operations (test/helpers/contract/suite.ts); probes in ./probes.ts.
import { contractSuite } from "../helpers/contract/suite";
import { probes } from "./probes";

contractSuite("orders", probes);
