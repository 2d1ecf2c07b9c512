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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README is a product page a Spring user reads once: about 4,000 words at most, a
 * table of contents, a first {@code @Leased} within its first screens, every code snippet
 * with the imports of the project's types it uses, and no issue numbers or commit hashes
 * a reader cannot open (history is the CHANGELOG's).
 *
 * @author Lease contributors
 */
class ReadmeTests {

	private static final Path ROOT = RepositoryFiles.ROOT;

	private static final int MOST_WORDS = 4000;

	// About two screens of prose.
	private static final int FIRST_LEASED_BY_WORD = 800;

	private static final Pattern SNIPPET = Pattern.compile("^```(java|kotlin)\\n(.*?)^```",
			Pattern.MULTILINE | Pattern.DOTALL);

	private static final Pattern PUBLIC_TYPE = Pattern.compile(
			"^public (?:final |abstract |sealed |non-sealed )*(?:class|interface|record|enum|@interface) (\\w+)",
			Pattern.MULTILINE);

	// "issue 17", "issues 15, 17", "#123", or a commit hash of 7 to 40 hex digits with at
	// least one digit and one letter.
	private static final Pattern HISTORY = Pattern
		.compile("\\b[Ii]ssues? \\d+|(?<![\\w/])#\\d{2,}\\b|\\b(?=[0-9a-f]*\\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\\b");

	private final String readme = RepositoryFiles.read(ROOT.resolve("README.md"));

	@Test
	@DisplayName("The README is at most about 4,000 words")
	void readmeIsShort() {
		assertThat(this.readme.split("\\s+")).as("words in README.md").hasSizeLessThanOrEqualTo(MOST_WORDS);
	}

	@Test
	@DisplayName("The README and @Leased's Javadoc say that a call from the same bean runs without a lease")
	void selfInvocationIsNamedWhereUsersLookFirst() {
		assertThat(this.readme).contains("a call from the same bean (`this.settle(…)`) runs **without a lease**");
		assertThat(RepositoryFiles.read(ROOT.resolve("lease-spring/src/main/java/dev/lease/annotation/Leased.java"))
			.replaceAll("\\s*\\n\\s*\\*\\s*", " ")).contains("runs <strong>without a lease</strong>");
	}

	@Test
	@DisplayName("The README has a table of contents linking every section")
	void readmeHasATableOfContents() {
		Matcher heading = Pattern.compile("^## (.+)$", Pattern.MULTILINE).matcher(this.readme);
		List<String> missing = new ArrayList<>();
		assertThat(this.readme).contains("## Contents");
		while (heading.find()) {
			String title = heading.group(1).trim();
			if (!title.equals("Contents") && !this.readme.contains("](#" + anchor(title) + ")")) {
				missing.add(title);
			}
		}
		assertThat(missing).as("sections the table of contents does not link").isEmpty();
	}

	@Test
	@DisplayName("The first @Leased comes within the README's first screens")
	void firstLeasedComesEarly() {
		int at = this.readme.indexOf("@Leased(");
		assertThat(at).as("a @Leased(...) example in README.md").isNotNegative();
		assertThat(this.readme.substring(0, at).split("\\s+")).as("words before the first @Leased(...)")
			.hasSizeLessThanOrEqualTo(FIRST_LEASED_BY_WORD);
	}

	@Test
	@DisplayName("Every README snippet imports the project's types it uses")
	void everySnippetImportsTheProjectTypesItUses() {
		Set<String> projectTypes = projectTypes();
		List<String> missing = new ArrayList<>();
		Matcher snippet = SNIPPET.matcher(this.readme);
		while (snippet.find()) {
			String code = snippet.group(2);
			String body = code.replaceAll("(?m)^import .*$", "").replaceAll("//.*", "");
			for (String type : projectTypes) {
				if (Pattern.compile("(?<![\\w.])" + type + "\\b").matcher(body).find()
						&& !Pattern.compile("(?m)^import [\\w.]+\\." + type + "\\b").matcher(code).find()) {
					missing.add(type + " in the snippet starting '" + code.lines().findFirst().orElse("") + "'");
				}
			}
		}
		assertThat(missing).as("project types used without their import").isEmpty();
	}

	@Test
	@DisplayName("No issue number or commit hash in the README or docs")
	void noIssueNumbersOrCommitHashes() {
		List<String> found = new ArrayList<>();
		for (Path page : pages()) {
			Matcher history = HISTORY.matcher(RepositoryFiles.read(page));
			while (history.find()) {
				found.add(ROOT.relativize(page) + ": '" + history.group() + "'");
			}
		}
		assertThat(found).as("references a reader cannot open").isEmpty();
	}

	// GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens.
	private static String anchor(String title) {
		return title.toLowerCase().replaceAll("[^a-z0-9 _-]", "").replace(' ', '-');
	}

	private static List<Path> pages() {
		List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	// The public types of the published modules' main code, by simple name.
	private static Set<String> projectTypes() {
		Set<String> types = new TreeSet<>();
		RepositoryFiles
			.matching((path) -> path.toString().contains("/src/main/java/dev/lease/")
					&& path.toString().endsWith(".java") && !path.toString().contains("/benchmarks/")
					&& !path.toString().contains("/samples/") && !path.toString().contains("lease-test-support"))
			.forEach((path) -> {
				Matcher type = PUBLIC_TYPE.matcher(RepositoryFiles.read(path));
				while (type.find()) {
					types.add(type.group(1));
				}
			});
		return types;
	}

}
