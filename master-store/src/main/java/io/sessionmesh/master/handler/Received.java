package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.MasterRequest;

/** A request as {@link RequestDecoder} passes it on: typed, with the id its answer must carry. */
public record Received(int requestId, MasterRequest<?> request) {
}
