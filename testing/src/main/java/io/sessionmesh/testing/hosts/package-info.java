/**
 * Test hosts: simulated machines made of Linux network namespaces on one bridge ({@link
 * io.sessionmesh.testing.hosts.TestHosts}), the network, process and disk faults a test puts between them ({@link
 * io.sessionmesh.testing.hosts.Faults}), and a delay proxy for latency ({@link io.sessionmesh.testing.hosts.DelayProxy}).
 * Needs root; docs/testing-hosts.md describes it.
 */
package io.sessionmesh.testing.hosts;
