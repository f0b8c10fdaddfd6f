// Every test file gets reflect-metadata before tsyringe, as a composition root would.
import "reflect-metadata";
// Every module's error code table, registered as the package root registers them for a host.
import "@keyward/core/errors";
