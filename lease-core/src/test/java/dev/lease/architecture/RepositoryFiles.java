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
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The repository's own files, for the tests that read them: its root (the parent of the
 * module the tests run in), its files outside build output and tool folders, and their
 * text.
 *
 * @author Lease contributors
 */
final class RepositoryFiles {

	static final Path ROOT = Path.of("").toAbsolutePath().getParent();

	private static final Set<String> SKIPPED = Set.of("target", ".git", ".mvn", "node_modules", ".idea");

	private RepositoryFiles() {
	}

	// Every regular file the predicate accepts, outside the skipped folders.
	static List<Path> matching(Predicate<Path> wanted) {
		try (Stream<Path> files = Files.walk(ROOT)) {
			return files.filter(Files::isRegularFile).filter(RepositoryFiles::outsideSkipped).filter(wanted).toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static boolean outsideSkipped(Path file) {
		for (Path part : ROOT.relativize(file)) {
			if (SKIPPED.contains(part.toString())) {
				return false;
			}
		}
		return true;
	}

}
