package io.sessionmesh.master.replication;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Group commit: one change alone goes at once; what arrives while an entry is in flight goes as the next entry, in
 * arrival order and within the byte limit; a failed entry reports each of its changes; a full queue refuses.
 */
class ProposalBatcherTest {
    /** The entries proposed so far (their changes' names) and the futures that stand for Ratis's answers. */
    private final List<List<String>> proposed = new ArrayList<>();
    private final List<CompletableFuture<Void>> answers = new ArrayList<>();
    private final List<String> failed = new ArrayList<>();

    private ProposalBatcher<String> batcher(int maxInFlight) {
        return new ProposalBatcher<>(maxInFlight, batch -> {
            proposed.add(batch.stream().map(ProposalBatcher.Queued::owner).toList());
            CompletableFuture<Void> answer = new CompletableFuture<>();
            answers.add(answer);
            return answer;
        }, (change, failure) -> failed.add(change.owner()), Runnable::run);
    }

    private static ProposalBatcher.Queued<String> change(String name, int bytes) {
        return new ProposalBatcher.Queued<>(new byte[bytes], name);
    }

    @Test
    void aChangeAloneGoesAtOnceAndWhatArrivesMeanwhileGoesAsOneEntry() {
        ProposalBatcher<String> batcher = batcher(1);
        assertTrue(batcher.add(change("a", 10)));
        assertEquals(List.of(List.of("a")), proposed);
        batcher.add(change("b", 10));
        batcher.add(change("c", 10));
        batcher.add(change("d", 10));
        assertEquals(1, proposed.size(), "nothing more goes while one entry is in flight");
        assertEquals(3, batcher.queued());
        answers.get(0).complete(null);
        assertEquals(List.of(List.of("a"), List.of("b", "c", "d")), proposed);
        answers.get(1).complete(null);
        batcher.add(change("e", 10));
        assertEquals(List.of("e"), proposed.get(2), "with nothing in flight a change goes alone again");
        assertEquals(5.0 / 3, batcher.changesPerEntry(), 1e-9);
        assertTrue(failed.isEmpty());
    }

    @Test
    void upToMaxInFlightEntriesGoAtOnce() {
        ProposalBatcher<String> batcher = batcher(2);
        batcher.add(change("a", 10));
        batcher.add(change("b", 10));
        batcher.add(change("c", 10));
        assertEquals(List.of(List.of("a"), List.of("b")), proposed);
        answers.get(1).complete(null);
        assertEquals(List.of("c"), proposed.get(2));
    }

    @Test
    void aBatchStopsAtItsByteLimitButAChangeAboveItGoesAlone() {
        ProposalBatcher<String> batcher = batcher(1);
        batcher.add(change("first", 10));
        int big = ProposalBatcher.MAX_BATCH_BYTES / 2;
        batcher.add(change("b1", big));
        batcher.add(change("b2", big));
        batcher.add(change("huge", ProposalBatcher.MAX_BATCH_BYTES * 2));
        answers.get(0).complete(null);
        assertEquals(List.of("b1"), proposed.get(1), "b1 and b2 together pass the limit by their length fields");
        answers.get(1).complete(null);
        assertEquals(List.of("b2"), proposed.get(2));
        answers.get(2).complete(null);
        assertEquals(List.of("huge"), proposed.get(3));
    }

    @Test
    void aFailedEntryReportsEachOfItsChangesAndTheNextStillGoes() {
        ProposalBatcher<String> batcher = batcher(1);
        batcher.add(change("a", 10));
        batcher.add(change("b", 10));
        batcher.add(change("c", 10));
        answers.get(0).complete(null);
        batcher.add(change("d", 10));
        answers.get(1).completeExceptionally(new IllegalStateException("not leader"));
        assertEquals(List.of("b", "c"), failed);
        assertEquals(List.of("d"), proposed.get(2));
    }

    @Test
    void aFullQueueRefusesAChangeAndProposesNothingOfIt() {
        ProposalBatcher<String> batcher = batcher(1);
        batcher.add(change("in flight", 1));
        for (int i = 0; i < ProposalBatcher.MAX_QUEUED; i++) {
            assertTrue(batcher.add(change("q" + i, 1)));
        }
        assertFalse(batcher.add(change("one too many", 1)));
        answers.get(0).complete(null);
        assertEquals(ReplicaCommand.MAX_BATCH_ENTRIES, proposed.get(1).size(), "a batch stops at its count limit");
        answers.get(1).complete(null);
        assertEquals(ProposalBatcher.MAX_QUEUED - ReplicaCommand.MAX_BATCH_ENTRIES, proposed.get(2).size());
        assertFalse(proposed.get(2).contains("one too many"));
    }

    @Test
    void theNextBatchIsProposedOnTheGivenExecutorNotOnTheThreadThatCompletedTheEntry() {
        List<Runnable> handedOff = new ArrayList<>();
        ProposalBatcher<String> batcher = new ProposalBatcher<>(1, batch -> {
            proposed.add(batch.stream().map(ProposalBatcher.Queued::owner).toList());
            CompletableFuture<Void> answer = new CompletableFuture<>();
            answers.add(answer);
            return answer;
        }, (change, failure) -> failed.add(change.owner()), handedOff::add);
        batcher.add(change("a", 10));
        batcher.add(change("b", 10));
        answers.get(0).complete(null); // as Ratis's apply thread would
        assertEquals(1, proposed.size(), "nothing proposed on the completing thread");
        assertEquals(1, handedOff.size());
        handedOff.get(0).run();
        assertEquals(List.of("b"), proposed.get(1));
    }
}
