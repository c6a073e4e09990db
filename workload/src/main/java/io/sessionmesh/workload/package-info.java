/**
 * The standard workload of docs/WORKLOAD.md, in one place, for every benchmark, load generator and demo: which
 * session ({@link io.sessionmesh.workload.Zipf}), its shape ({@link io.sessionmesh.workload.SessionShape}), its values
 * ({@link io.sessionmesh.workload.WorkloadValues}, {@link io.sessionmesh.workload.ValuePool} and their sizes,
 * {@link io.sessionmesh.workload.ValueSizes}), the requests ({@link io.sessionmesh.workload.RequestMix}) and the churn
 * ({@link io.sessionmesh.workload.Scale}). Deterministic: the same seeds give the same values and requests.
 * No dependencies but the JDK.
 */
package io.sessionmesh.workload;
