// The contract suite for the operations the app serves itself (the health check, public and beyond the
// interface: outside the suite's probes, but counted, so that every operation of the document has a file).
import { contractSuite } from "../helpers/contract/suite";

contractSuite("core", { tenant: {} });
