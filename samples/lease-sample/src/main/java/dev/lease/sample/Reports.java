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

package dev.lease.sample;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Service;

import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;

/**
 * The daily report: a scheduled job that every instance schedules and only one runs at a
 * time. The others skip, never wait (the ShedLock case).
 *
 * @author Lease contributors
 */
@Service
public class Reports {

	private static final Log logger = LogFactory.getLog(Reports.class);

	/**
	 * Generate the daily report unless another scheduler is generating it.
	 * @param scheduler the scheduler running the job
	 * @return {@code true} when generated; {@code null} when skipped
	 * @throws InterruptedException if interrupted while generating
	 */
	@Leased(key = "'report:daily'", duration = "5s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP)
	public Boolean generate(String scheduler) throws InterruptedException {
		logger.info(scheduler + " generates the daily report");
		Thread.sleep(500);
		return Boolean.TRUE;
	}

}
