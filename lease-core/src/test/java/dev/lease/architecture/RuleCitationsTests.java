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

package dev.lease.architecture;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every rule the repository cites resolves to an anchor of {@code docs/semantics.md},
 * every link into a Markdown page of the repository ({@code semantics.md#operation-4},
 * {@code #waiting-and-waking}) reaches an anchor or heading there, and nothing cites a
 * design text outside the repository: a reader can look up every "Operation 4" or
 * "Invariant 2.2" they meet, and every statement of {@code docs/architecture.md} links
 * the rule it keeps.
 *
 * @author Lease contributors
 */
class RuleCitationsTests {

	private static final Path ROOT = RepositoryFiles.ROOT;

	// The space between two words of a citation, across a wrapped comment line.
	private static final String WRAP = "(?:\\s+(?:\\*|//)?\\s*|\\s)";

	// One rule ("Invariant 2.2") or a range of rules ("Operations 1–14", "Check
	// 1.1–6.2").
	private static final Pattern CITATION = Pattern.compile(
			"\\b(Identity|Identities|States?|Operations?|Invariants?|Fences?|Checks?|Non-goals?|Composition notes?|Grants)"
					+ " (\\d+(?:\\.\\d+)?)(?:\\s*(?:–|-|to|through)\\s*(\\d+(?:\\.\\d+)?))?\\b");

	// A host rule ("Host: interruption", "Host: the state model"), wrapped in a comment
	// or not.
	private static final Pattern HOST_RULE = Pattern
		.compile("\\bHost:\\s+(?:the" + WRAP + ")?([a-z]+(?:" + WRAP + "[a-z]+)?)\\b");

	private static final Pattern ANCHOR = Pattern.compile("<a id=\"([a-z0-9-]+)\"></a>");

	// A Markdown link to a fragment of a page of the repository: "[x](semantics.md#a)",
	// "[x](#a)". Links to other sites have a scheme and are not followed.
	private static final Pattern LINK = Pattern.compile("\\]\\(((?:[\\w./-]*\\.md)?)#([^)\\s]+)\\)");

	private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+)$", Pattern.MULTILINE);

	private static final Pattern FENCED_BLOCK = Pattern.compile("^```.*?^```", Pattern.MULTILINE | Pattern.DOTALL);

	// A citation of the design note or the specification kept beside the repository: its
	// section sign, its file name, or the folder they lie in. The first letters stand in
	// brackets so that this pattern is not itself such a citation.
	private static final Pattern OUTSIDE = Pattern
		.compile("[D]ESIGN(?: \u00a7| section |\\.md)|[s]hared/(?:spec|[D]ESIGN)|[l]ease-atom\\.txt");

	@Test
	@DisplayName("Every rule cited in code, tests and docs has an anchor in docs/semantics.md")
	void everyCitedRuleHasAnAnchor() {
		Set<String> anchors = anchors();
		List<String> unresolved = new ArrayList<>();
		for (Path file : sources()) {
			String text = RepositoryFiles.read(file);
			Matcher hostRule = HOST_RULE.matcher(text);
			while (hostRule.find()) {
				String anchor = "host-" + hostRule.group(1).replaceAll("[\\s*/]+", "-");
				if (!anchors.contains(anchor) && !anchors.contains(anchor.replaceAll("-[a-z]+$", ""))) {
					unresolved.add(ROOT.relativize(file) + ": '" + hostRule.group() + "' (no #" + anchor + ")");
				}
			}
			Matcher citation = CITATION.matcher(text);
			while (citation.find()) {
				String kind = singular(citation.group(1));
				for (String number : numbers(citation)) {
					String anchor = anchor(kind, number);
					if (!anchors.contains(anchor)) {
						unresolved.add(ROOT.relativize(file) + ": '" + citation.group() + "' (no #" + anchor + ")");
					}
				}
			}
		}
		assertThat(unresolved).as("citations without an anchor in docs/semantics.md").isEmpty();
	}

	@Test
	@DisplayName("Every link to a fragment of a page in the repository reaches an anchor or heading there")
	void everyLinkReachesItsAnchor() {
		List<String> unresolved = new ArrayList<>();
		for (Path file : sources()) {
			if (!file.toString().endsWith(".md")) {
				continue;
			}
			Matcher link = LINK.matcher(RepositoryFiles.read(file));
			while (link.find()) {
				Path target = link.group(1).isEmpty() ? file : file.resolveSibling(link.group(1)).normalize();
				if (!Files.isRegularFile(target)) {
					unresolved.add(ROOT.relativize(file) + ": '" + link.group(1) + "#" + link.group(2) + "' (no file "
							+ ROOT.relativize(target) + ")");
				}
				else if (!pageAnchors(target).contains(link.group(2))) {
					unresolved.add(ROOT.relativize(file) + ": '" + link.group(1) + "#" + link.group(2) + "' (no #"
							+ link.group(2) + " in " + ROOT.relativize(target) + ")");
				}
			}
		}
		assertThat(unresolved).as("links without an anchor in the page they name").isEmpty();
	}

	@Test
	@DisplayName("The link check knows a page's anchors and the ids of its headings")
	void linkCheckReadsAnchorsAndHeadings() {
		assertThat(pageAnchors(ROOT.resolve("docs/semantics.md"))).contains("operation-4", "host-waking",
				"conformance-checks");
		assertThat(pageAnchors(ROOT.resolve("docs/architecture.md"))).contains("the-host-kit-devleasehost",
				"at-the-bound-withdrawal");
		Matcher link = LINK.matcher("see [Operation 4](semantics.md#operation-4) and [below](#testing)");
		List<String> found = new ArrayList<>();
		while (link.find()) {
			found.add(link.group(1) + "#" + link.group(2));
		}
		assertThat(found).containsExactly("semantics.md#operation-4", "#testing");
	}

	@Test
	@DisplayName("Nothing in the repository cites a design text outside it")
	void nothingCitesADesignTextOutsideTheRepository() {
		List<String> outside = new ArrayList<>();
		for (Path file : sources()) {
			Matcher matcher = OUTSIDE.matcher(RepositoryFiles.read(file));
			while (matcher.find()) {
				outside.add(ROOT.relativize(file) + ": '" + matcher.group() + "'");
			}
		}
		assertThat(outside).isEmpty();
	}

	@Test
	@DisplayName("The citation check reads single rules, sub-rules and ranges")
	void citationPatternReadsSingleRulesAndRanges() {
		Matcher matcher = CITATION.matcher("(Operations 1–14; Invariant 2.2, Non-goal 3)");
		List<String> found = new ArrayList<>();
		while (matcher.find()) {
			for (String number : numbers(matcher)) {
				found.add(anchor(singular(matcher.group(1)), number));
			}
		}
		assertThat(found).containsExactly("operation-1", "operation-14", "invariant-2-2", "non-goal-3");
		assertThat(anchors()).contains("operation-14", "invariant-2-2", "non-goal-3", "check-6-2", "grants-7");
	}

	private static List<String> numbers(Matcher citation) {
		return (citation.group(3) != null) ? List.of(citation.group(2), citation.group(3)) : List.of(citation.group(2));
	}

	private static String singular(String kind) {
		return switch (kind) {
			case "Identities" -> "Identity";
			case "Grants" -> "Grants";
			default -> kind.endsWith("s") ? kind.substring(0, kind.length() - 1) : kind;
		};
	}

	private static String anchor(String kind, String number) {
		return (kind.toLowerCase(Locale.ROOT).replace(' ', '-') + "-" + number.replace('.', '-'));
	}

	private static Set<String> anchors() {
		Set<String> anchors = new TreeSet<>();
		Matcher matcher = ANCHOR.matcher(RepositoryFiles.read(ROOT.resolve("docs/semantics.md")));
		while (matcher.find()) {
			anchors.add(matcher.group(1));
		}
		return anchors;
	}

	// The explicit anchors of a Markdown page and the ids its headings get where the page
	// is rendered: lower case, punctuation dropped, spaces made hyphens.
	private static Set<String> pageAnchors(Path page) {
		String text = RepositoryFiles.read(page);
		Set<String> anchors = new TreeSet<>();
		Matcher anchor = ANCHOR.matcher(text);
		while (anchor.find()) {
			anchors.add(anchor.group(1));
		}
		Matcher heading = HEADING.matcher(FENCED_BLOCK.matcher(text).replaceAll(""));
		while (heading.find()) {
			anchors.add(heading.group(1)
				.strip()
				.toLowerCase(Locale.ROOT)
				.replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
				.replace(' ', '-'));
		}
		return anchors;
	}

	private static List<Path> sources() {
		return RepositoryFiles.matching((file) -> file.toString().matches(".*\\.(java|kt|md|lua|sql|properties|json)")
				&& !file.endsWith(Path.of("lease-core/src/test/java/dev/lease/architecture/RuleCitationsTests.java")));
	}

}
