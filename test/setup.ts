// Every test file gets reflect-metadata before tsyringe, as a composition root would.
import "reflect-metadata";
