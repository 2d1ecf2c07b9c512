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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * The fenced Java and Kotlin code blocks of the README and the guides (README.md and
 * docs/*.md at the repository's root), each with its page, the line of its opening fence,
 * and the reason it is not compiled when the line directly above the fence says so in an
 * HTML comment a reader does not see: {@code <!-- snippet: not compiled, because … -->}.
 *
 * @author Lease contributors
 */
final class MarkdownSnippets {

	static final Path ROOT = Path.of("").toAbsolutePath().getParent();

	private static final Pattern OPENING = Pattern.compile("^```(java|kotlin)\\s*$");

	private static final Pattern NOT_COMPILED = Pattern
		.compile("^<!-- snippet: not compiled, because (?<reason>\\S.*?)\\s*-->\\s*$");

	private static final Pattern ANY_MARK = Pattern.compile("<!-- snippet:");

	private MarkdownSnippets() {
	}

	static List<Snippet> all() {
		List<Snippet> snippets = new ArrayList<>();
		for (Path page : pages()) {
			snippets.addAll(in(page));
		}
		return snippets;
	}

	// The marks that do not sit directly above a Java or Kotlin block, or give no reason:
	// a mark that excuses nothing, or excuses without saying why, is a mistake.
	static List<String> strayMarks() {
		List<String> stray = new ArrayList<>();
		for (Path page : pages()) {
			List<String> lines = lines(page);
			for (int i = 0; i < lines.size(); i++) {
				if (ANY_MARK.matcher(lines.get(i)).find() && (!NOT_COMPILED.matcher(lines.get(i)).matches()
						|| i + 1 == lines.size() || !OPENING.matcher(lines.get(i + 1)).matches())) {
					stray.add(ROOT.relativize(page) + ":" + (i + 1) + ": " + lines.get(i));
				}
			}
		}
		return stray;
	}

	private static List<Snippet> in(Path page) {
		List<Snippet> snippets = new ArrayList<>();
		List<String> lines = lines(page);
		for (int i = 0; i < lines.size(); i++) {
			Matcher opening = OPENING.matcher(lines.get(i));
			if (opening.matches()) {
				int end = i + 1;
				while (end < lines.size() && !lines.get(end).startsWith("```")) {
					end++;
				}
				Matcher mark = (i > 0) ? NOT_COMPILED.matcher(lines.get(i - 1)) : null;
				String reason = (mark != null && mark.matches()) ? mark.group("reason") : null;
				snippets.add(new Snippet(ROOT.relativize(page).toString(), i + 1, opening.group(1),
						String.join("\n", lines.subList(i + 1, end)) + "\n", reason));
				i = end;
			}
		}
		return snippets;
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

	private static List<String> lines(Path page) {
		try {
			return Files.readAllLines(page, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * One fenced block.
	 *
	 * @param page the page, relative to the repository's root
	 * @param fenceLine the line of the opening fence; the code's first line is the next
	 * @param language {@code java} or {@code kotlin}
	 * @param code the block's text
	 * @param notCompiledBecause the reason its mark gives, or {@code null} when it is
	 * compiled
	 */
	record Snippet(String page, int fenceLine, String language, String code, @Nullable String notCompiledBecause) {

		boolean compiled() {
			return this.notCompiledBecause == null;
		}

		// Where a line of the code is on the page.
		String at(long codeLine) {
			return this.page + ":" + (this.fenceLine + codeLine);
		}

		@Override
		public String toString() {
			return this.page + ":" + this.fenceLine;
		}

	}

}
