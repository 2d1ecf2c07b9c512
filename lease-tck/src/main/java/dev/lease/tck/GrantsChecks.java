/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.lease.tck;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Grants: the listing of the standing grants in pages read at one reading of the host's
 * clock, and the exact read of one key's standing grant, both derived by the state model
 * and writing nothing (State 1 to 3; Check 5.2). The rules, named in the tests:
 * <ol>
 * <li>Grants 1: a pass over the pages lists a grant that stands throughout it exactly
 * once;</li>
 * <li>Grants 2: a page lists at most its limit, no key twice, and the last page names no
 * next;</li>
 * <li>Grants 3: a page is read at one reading of the host's clock, taken no earlier than
 * the grants it lists and no later than its answer, and each grant listed stands at
 * it;</li>
 * <li>Grants 4: a released grant, or one passed with nobody waiting, is not listed nor
 * read;</li>
 * <li>Grants 5: the exact read answers the key's standing grant, and nothing for a free
 * key;</li>
 * <li>Grants 6: a passed grant with a waiter is read as handed to the waiter as of its
 * instant;</li>
 * <li>Grants 7: the listing and the exact read write nothing (Check 5.2);</li>
 * <li>Grants 8: where the host keeps grants' starts, a grant read or listed says when it
 * began: its instant less its duration.</li>
 * </ol>
 *
 * @author Lease contributors
 */
abstract class GrantsChecks extends KitGroup {

	private static final int GRANTS = 12;

	private static final int PAGE = 5;

	@Test
	@DisplayName("Grants 1 (State 1): a pass over the pages lists every grant that stands throughout it exactly once, with the instant the host holds")
	void passListsEveryStandingGrantExactlyOnce() {
		List<Lease> held = new ArrayList<>();
		for (int i = 0; i < GRANTS; i++) {
			held.add(taken(newKey(), newHolder("holder"), LONG));
		}
		Set<LeaseKey> keys = held.stream().map(Lease::key).collect(Collectors.toSet());
		List<Lease> listed = new ArrayList<>();
		for (GrantsPage page : pass(PAGE)) {
			listed.addAll(page.grants().stream().filter((grant) -> keys.contains(grant.key())).toList());
		}
		assertThat(listed).containsExactlyInAnyOrderElementsOf(held);
	}

	@Test
	@DisplayName("Grants 2: a page lists at most its limit of grants, each key at most once, and a page that is not the last names the next")
	void pageIsBoundedByItsLimit() {
		for (int i = 0; i < GRANTS; i++) {
			taken(newKey(), newHolder("holder"), LONG);
		}
		List<GrantsPage> pages = pass(PAGE);
		assertThat(pages).allSatisfy((page) -> assertThat(page.grants()).hasSizeLessThanOrEqualTo(PAGE)
			.doesNotHaveDuplicates()
			.extracting(Lease::key)
			.doesNotHaveDuplicates());
		assertThat(pages.get(pages.size() - 1).next()).isNull();
		assertThat(host().grants(null, 1).grants()).hasSizeLessThanOrEqualTo(1);
		assertThatIllegalArgumentException().isThrownBy(() -> host().grants(null, 0));
	}

	@Test
	@DisplayName("Grants 3 (Operation 10): a page is read at one reading of the host's clock, taken after the grants it lists were made and no later than its answer; each grant listed stands at it")
	void pageIsReadAtOneReadingOfTheHostsClock() {
		Lease before = taken(newKey(), newHolder("before"), LONG);
		GrantsPage page = host().grants(null, Integer.MAX_VALUE);
		Lease after = taken(newKey(), newHolder("after"), LONG);
		Instant readAt = page.readAt();
		assertThat(readAt).isAfterOrEqualTo(grantedAt(before, LONG)).isBeforeOrEqualTo(grantedAt(after, LONG));
		assertThat(page.grants()).allSatisfy((grant) -> assertThat(grant.expiresAt()).isAfter(readAt));
		List<Lease> listed = new ArrayList<>();
		pass(PAGE).forEach((each) -> listed.addAll(each.grants()));
		assertThat(listed).contains(before, after);
		assertThat(page.remaining(before)).isEqualTo(Duration.between(readAt, before.expiresAt()))
			.isLessThanOrEqualTo(LONG);
	}

	@Test
	@DisplayName("Grants 4 (State 1): a grant that ended is not listed: released, or passed with nobody waiting")
	void endedGrantsAreNotListed() throws Exception {
		LeaseKey released = newKey();
		LeaseHolder holder = newHolder("holder");
		taken(released, holder, LONG);
		host().release(released, holder);
		LeaseKey passed = newKey();
		taken(passed, newHolder("holder"), SHORT);
		elapse(SHORT.plus(CLOCK_GRAIN));
		List<Lease> listed = new ArrayList<>();
		pass(PAGE).forEach((page) -> listed.addAll(page.grants()));
		assertThat(listed).noneMatch((grant) -> grant.key().equals(released) || grant.key().equals(passed));
		assertThat(host().grant(released)).isEmpty();
		assertThat(host().grant(passed)).isEmpty();
	}

	@Test
	@DisplayName("Grants 5 (State 1): the exact read answers the grant that stands on the key, and nothing for a free key")
	void grantAnswersTheStandingGrant() {
		LeaseKey key = newKey();
		Lease held = taken(key, newHolder("holder"), LONG);
		assertThat(host().grant(key)).contains(held);
		assertThat(host().grant(newKey())).isEmpty();
	}

	@Test
	@DisplayName("Grants 6 (State 3, Operation 2): the exact read of a key whose grant passed with a waiter answers the grant handed to the waiter as of the instant")
	void grantAnswersAPassedGrantAsHandedOn() throws Exception {
		LeaseKey key = newKey();
		Lease first = taken(key, newHolder("holder"), SHORT);
		LeaseHolder waiter = newHolder("waiter");
		TimedTake take = takeInBackground(key, waiter, LONG);
		arrived(key, waiter);
		elapse(SHORT.plus(CLOCK_GRAIN));
		Lease handed = new Lease(key, waiter, first.expiresAt().plus(LONG));
		assertThat(host().grant(key)).contains(handed);
		assertThat(take.answer(tolerance())).isEqualTo(new Taken(handed));
		assertThat(host().grant(key)).contains(handed);
	}

	@Test
	@DisplayName("Grants 7 (Check 5.2): the exact read and the listing write nothing: the holder still holds, the key stays taken, a free key stays free")
	void readsWriteNothing() {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		Lease held = taken(key, holder, LONG);
		LeaseKey free = newKey();
		for (int i = 0; i < 5; i++) {
			assertThat(host().grant(key)).contains(held);
			assertThat(host().grant(free)).isEmpty();
			host().grants(null, PAGE);
		}
		assertThat(host().remaining(key, holder)).isPresent();
		assertThat(host().tryTake(key, newHolder("other"), LONG)).isInstanceOf(Held.class);
		assertThat(host().grant(key)).contains(held);
		assertThat(host().grants(Integer.MAX_VALUE)).contains(held);
	}

	@Test
	@DisplayName("Grants 8 (Operation 2): a grant read or listed says when it began, its instant less its duration: taken at once, handed on at a release, handed on as its grant passed; an ended grant says nothing")
	void grantsSayWhenTheyBegan() throws Exception {
		// Long grants wherever the listing is read: a pass over a shared store's pages
		// may
		// outlast a short one.
		LeaseKey key = newKey();
		Lease first = taken(key, newHolder("holder"), LONG);
		assertStart(first, LONG, true);
		LeaseHolder second = newHolder("second");
		TimedTake atRelease = takeInBackground(key, second, LONG);
		arrived(key, second);
		assertThat(host().release(key, first.holder())).isInstanceOf(Released.class);
		Lease handed = ((Taken) atRelease.answer(tolerance())).lease();
		assertStart(handed, LONG, true);
		assertThat(host().release(key, second)).isInstanceOf(Released.class);
		LeaseKey passing = newKey();
		Lease brief = taken(passing, newHolder("holder"), SHORT);
		assertStart(brief, SHORT, false);
		LeaseHolder third = newHolder("third");
		TimedTake atExpiry = takeInBackground(passing, third, LONG);
		arrived(passing, third);
		elapse(SHORT.plus(CLOCK_GRAIN));
		Lease derived = new Lease(passing, third, brief.expiresAt().plus(LONG));
		// read before the waiter asks: derived by the state model, as Grants 6
		assertStart(derived, LONG, true);
		assertThat(atExpiry.answer(tolerance())).isEqualTo(new Taken(derived));
		assertStart(derived, LONG, true);
		assertThat(host().release(passing, third)).isInstanceOf(Released.class);
		assertThat(host().grantedAt(derived)).as("the start of a released grant").isEmpty();
		assertThat(host().grantedAt(brief)).as("the start of a grant that passed").isEmpty();
	}

	// Read exactly, and listed where asked, the grant's start is its instant less its
	// duration; a host that keeps none says none, and an answer given is checked either
	// way.
	private void assertStart(Lease grant, Duration duration, boolean listed) {
		Instant start = grantedAt(grant, duration);
		List<Optional<Instant>> answers = new ArrayList<>();
		answers.add(host().grantedAt(grant));
		if (listed) {
			for (GrantsPage page : pass(PAGE)) {
				if (page.grants().contains(grant)) {
					answers.add(page.grantedAt(grant));
				}
			}
		}
		assertThat(answers).as("the grant read exactly, then listed").hasSize(listed ? 2 : 1);
		for (Optional<Instant> answer : answers) {
			if (answer.isEmpty()) {
				assertThat(kit().keepsGrantStarts()).as("a host that keeps grants' starts answers them").isFalse();
			}
			else {
				assertThat(answer).as("when %s began", grant).contains(start);
			}
		}
	}

	// Every page of one pass, from the first to the one that names no next.
	private List<GrantsPage> pass(int limit) {
		List<GrantsPage> pages = new ArrayList<>();
		String cursor = null;
		do {
			GrantsPage page = host().grants(cursor, limit);
			pages.add(page);
			cursor = page.next();
		}
		while (cursor != null);
		return pages;
	}

}
